package io.github.limiter.interceptor;

import java.util.List;
import java.util.UUID;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @RateLimit(condition = ...)} on real Redis: a limit whose condition is false for a call
 * runs no script for it and counts nothing, while the method's other limits still apply; a
 * condition that reads what the method does not have fails the start.
 */
@WithRedis
class ConditionIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private AdvisedBeans beans;

    private String prefix;

    @Test
    void aLimitWhoseConditionIsFalseRunsNoScriptAndCountsNothing() {
        Downloads downloads = start(Downloads.class).bean(Downloads.class);
        this.beans.clear();
        for (int call = 0; call < 5; call++) {
            assertThat(downloads.download("admin", false)).isEqualTo("admin");
        }
        assertThat(this.beans.decided()).as("no script ran for calls no limit applies to").isEmpty();
        assertThat(redis.keys(this.prefix + "*")).isEmpty();
        assertThat(downloads.download("ann", false)).isEqualTo("ann");
        assertThat(downloads.download("ann", false)).isEqualTo("ann");
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> downloads.download("ann", false))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("downloads"));
        assertThat(this.beans.decided()).allSatisfy((limits) -> assertThat(limits).containsExactly("downloads"));
        // a large download counts under both limits, in one decision
        this.beans.clear();
        assertThat(downloads.download("bob", true)).isEqualTo("bob");
        assertThat(this.beans.decided()).singleElement().isEqualTo(List.of("downloads", "large-downloads"));
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> downloads.download("bob", true))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("large-downloads"));
    }

    @Test
    void aConditionThatFailsOnACallRefusesItNamingTheCondition() {
        Downloads downloads = start(Downloads.class).bean(Downloads.class);
        assertThatExceptionOfType(RateLimitExpressionException.class)
            .isThrownBy(() -> downloads.download(null, false))
            .satisfies((ex) -> assertThat(ex.getAttribute()).isEqualTo("condition"));
    }

    @Test
    void aConditionReadingAnUnknownVariableFailsTheStart() {
        assertThatThrownBy(() -> start(Mistyped.class)).rootCause()
            .isInstanceOf(InvalidRateLimitException.class)
            .hasMessageContaining("condition = '#usr != null' reads #usr, which is neither a parameter");
    }

    private AdvisedBeans start(Class<?> bean) {
        this.prefix = "condition-" + UUID.randomUUID() + ":";
        this.beans = this.closing.add(new AdvisedBeans(this.prefix, AdvisedBeans.DEFAULTS, bean));
        return this.beans;
    }

    public static class Downloads {

        @RateLimit(name = "downloads", key = "#user", window = "1m", max = 2, condition = "!#user.equals('admin')")
        @RateLimit(name = "large-downloads", key = "#user", window = "1m", max = 1, condition = "#large")
        public String download(String user, boolean large) {
            return user;
        }

    }

    public static class Mistyped {

        @RateLimit(key = "#user", window = "1m", max = 2, condition = "#usr != null")
        public String download(String user) {
            return user;
        }

    }

}
