package io.github.limiter.interceptor;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.Decision;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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

    // every decision the limiter made: one per script call
    private static final List<List<String>> decided = new CopyOnWriteArrayList<>();

    private AnnotationConfigApplicationContext context;

    private RedisRateLimiter limiter;

    private String prefix;

    @AfterEach
    void close() {
        if (this.context != null) {
            this.context.close();
        }
        if (this.limiter != null) {
            this.limiter.close();
        }
    }

    @Test
    void aLimitWhoseConditionIsFalseRunsNoScriptAndCountsNothing() {
        Downloads downloads = start(Downloads.class).getBean(Downloads.class);
        decided.clear();
        for (int call = 0; call < 5; call++) {
            assertThat(downloads.download("admin", false)).isEqualTo("admin");
        }
        assertThat(decided).as("no script ran for calls no limit applies to").isEmpty();
        assertThat(redis.keys(this.prefix + "*")).isEmpty();
        assertThat(downloads.download("ann", false)).isEqualTo("ann");
        assertThat(downloads.download("ann", false)).isEqualTo("ann");
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> downloads.download("ann", false))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("downloads"));
        assertThat(decided).allSatisfy((limits) -> assertThat(limits).containsExactly("downloads"));
        // a large download counts under both limits, in one decision
        decided.clear();
        assertThat(downloads.download("bob", true)).isEqualTo("bob");
        assertThat(decided).singleElement().isEqualTo(List.of("downloads", "large-downloads"));
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> downloads.download("bob", true))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("large-downloads"));
    }

    @Test
    void aConditionThatFailsOnACallRefusesItNamingTheCondition() {
        Downloads downloads = start(Downloads.class).getBean(Downloads.class);
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

    private AnnotationConfigApplicationContext start(Class<?> bean) {
        this.prefix = "condition-" + UUID.randomUUID() + ":";
        this.limiter = RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build();
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getBeanFactory().registerSingleton("rateLimiter", new Recording(this.limiter));
        context.register(AdvisorConfig.class, bean);
        this.context = context;
        context.refresh();
        return context;
    }

    /** The limiter, recording the limits of each decision it is asked for. */
    record Recording(RateLimiter limiter) implements RateLimiter {

        @Override
        public Decision tryAcquire(List<LimitRequest> requests) {
            return tryAcquire(requests, null);
        }

        @Override
        public Decision tryAcquire(List<LimitRequest> requests, RateLimitListener listener) {
            decided.add(requests.stream().map(LimitRequest::limitId).toList());
            return this.limiter.tryAcquire(requests, listener);
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class AdvisorConfig {

        @Bean
        static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
            return new DefaultAdvisorAutoProxyCreator();
        }

        @Bean
        static RateLimitAdvisor rateLimitAdvisor(BeanFactory beanFactory) {
            return new RateLimitAdvisor(() -> beanFactory.getBean(RateLimiter.class), beanFactory,
                    () -> new RateLimitAdvisor.Settings(Map.of(), BlankKey.REJECT, OnFailure.ALLOW));
        }

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
