package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

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

    public static class Answers {

        @RateLimit(key = "#p0.toLowerCase()", window = "1m", max = 5)
        public String answer(String user) {
            return user;
        }

        public void unlimited() {
        }

    }

}
