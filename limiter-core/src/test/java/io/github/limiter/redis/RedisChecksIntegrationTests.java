package io.github.limiter.redis;

import java.util.List;

import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

@WithRedis
class RedisChecksIntegrationTests {

    @Test
    void reportsTheVersionAndLoadsTheScript() {
        RedisRateLimiter limiter = new RedisRateLimiter(RedisServerExtension.template(), "checks:", List.of());
        assertThat(limiter.check()).startsWith("6.2");
    }

    @ParameterizedTest
    @ValueSource(strings = { "2.8.24", "3.2.12", "4.0.14" })
    void refusesRedisOlderThanFive(String version) {
        assertThatIllegalStateException().isThrownBy(() -> RedisChecks.requireSupported(version))
            .withMessage("Redis " + version + " is too old for limiter: its scripts read the time (TIME) before "
                    + "writing, which needs Redis 5.0 or later. Upgrade Redis.");
    }

    @ParameterizedTest
    @ValueSource(strings = { "5.0.0", "6.2.6", "7.4.2", "8.0.1" })
    void acceptsRedisFiveAndLater(String version) {
        assertThatNoException().isThrownBy(() -> RedisChecks.requireSupported(version));
    }

}
