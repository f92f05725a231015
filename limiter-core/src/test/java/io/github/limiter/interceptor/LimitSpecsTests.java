package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.github.limiter.Algorithm;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LimitSpecsTests {

    private final LimitSpecs specs = new LimitSpecs(new KeyExpressions(null),
            () -> new RateLimitAdvisor.Settings(Map.of(), BlankKey.REJECT, OnFailure.ALLOW), UnaryOperator.identity(),
            new ProxyChecks(null));

    @Test
    void everyCallFindsTheLimitResolvedAndParsedAtTheFirst() throws NoSuchMethodException {
        Method method = Answers.class.getMethod("answer", String.class);
        MethodLimits first = this.specs.find(method, Answers.class);
        assertThat(first).isNotNull();
        KeyExpression key = first.specs().get(0).key();
        assertThat(key).isInstanceOf(KeyExpression.Spel.class);
        for (int call = 0; call < 100; call++) {
            MethodLimits found = this.specs.find(method, Answers.class);
            assertThat(found).isSameAs(first);
            assertThat(found.specs().get(0).key()).isSameAs(key);
        }
    }

    @Test
    void aMethodWithoutLimitIsRememberedAsSuch() throws NoSuchMethodException {
        Method method = Answers.class.getMethod("unlimited");
        assertThat(this.specs.find(method, Answers.class)).isNull();
        assertThat(this.specs.resolved()).isEmpty();
    }

    @Test
    void aBurstIsATokenBucketsCheckedAtStartAndTakenFromThePolicy() throws NoSuchMethodException {
        LimitSpecs withPolicies = new LimitSpecs(new KeyExpressions(null),
                () -> new RateLimitAdvisor.Settings(Map.of("partner", new LimitPolicy(Algorithm.TOKEN_BUCKET,
                        Duration.ofSeconds(1), 10L, null, null, null, null, null, null, 100L)), BlankKey.REJECT,
                        OnFailure.ALLOW), UnaryOperator.identity(), new ProxyChecks(null));
        MethodLimits partner = withPolicies.find(Bursts.class.getMethod("partner"), Bursts.class);
        assertThat(partner.specs().get(0).limit().burst()).isEqualTo(100);
        assertThat(partner.specs().get(0).limit().max()).isEqualTo(10);
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> withPolicies.find(Bursts.class.getMethod("window"), Bursts.class))
            .withMessageContaining("burst = '100' is a token bucket's: FIXED_WINDOW allows max calls per window");
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> withPolicies.find(Bursts.class.getMethod("small"), Bursts.class))
            .withMessageContaining("burst = '5' is below max (10)");
    }

    public static class Bursts {

        @RateLimit(policy = "partner")
        public void partner() {
        }

        @RateLimit(window = "1s", max = 10, burst = 100)
        public void window() {
        }

        @RateLimit(algorithm = Algorithm.TOKEN_BUCKET, window = "1s", max = 10, burst = 5)
        public void small() {
        }

    }

    public static class Answers {

        @RateLimit(key = "#p0.toLowerCase()", window = "1m", max = 5)
        public String answer(String user) {
            return user;
        }

        public void unlimited() {
        }

    }

}
