package io.github.limiter.redis;

import java.util.List;

import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

@WithRedis
class RedisChecksIntegrationTests {

    @AutoClose
    private final Closer closing = new Closer();

    @Test
    void reportsTheVersionAndLoadsTheScript() {
        RedisRateLimiter limiter = this.closing.add(
                Limiters.of(RedisServerExtension.template(), "checks:", List.of()));
        assertThat(limiter.check()).isEqualTo(RedisServerExtension.redis().redisVersion());
    }

    @Test
    void refusesARealRedis28WithAClearMessage() {
        try (EmbeddedRedis old = EmbeddedRedis.startRedis28()) {
            LettuceConnectionFactory factory = old.newConnectionFactory();
            try {
                RedisRateLimiter limiter = this.closing.add(
                        Limiters.of(new StringRedisTemplate(factory), "checks:",
                        List.of()));
                assertThatIllegalStateException().isThrownBy(limiter::check)
                    .withMessage("Redis 2.8.19 is too old for limiter: its scripts read the time (TIME) before "
                            + "writing, which needs Redis 5.0 or later. Upgrade Redis.");
            }
            finally {
                factory.destroy();
            }
        }
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
