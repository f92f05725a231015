package io.github.limiter.test.autoconfigure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LimiterKeys}.
 */
class LimiterKeysTests {

    @Test
    void patternMatchesEveryKeyUnderThePrefixTakenLiterally() {
        assertThat(LimiterKeys.pattern("limiter:")).isEqualTo("limiter:*");
        assertThat(LimiterKeys.pattern("a*b?c[d]e\\:")).isEqualTo("a\\*b\\?c\\[d\\]e\\\\:*");
    }

    @Test
    void stateKeyOfEveryKeyOfALimitAndKeyIsItsStateKey() {
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:{answers:alice}")).isEqualTo("limiter:{answers:alice}");
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:{answers:alice}:ban"))
            .isEqualTo("limiter:{answers:alice}");
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:{answers:al:ice}:alert"))
            .isEqualTo("limiter:{answers:al:ice}");
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:{answers}:shadow-ban")).isEqualTo("limiter:{answers}");
    }

    @Test
    void keysOfNoStateHaveNoStateKey() {
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:events:{answers}")).isNull();
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:")).isNull();
        assertThat(LimiterKeys.stateKey("limiter:", "limiter:{unterminated")).isNull();
        assertThat(LimiterKeys.stateKey("limiter:", "other:{answers:alice}")).isNull();
    }

}
