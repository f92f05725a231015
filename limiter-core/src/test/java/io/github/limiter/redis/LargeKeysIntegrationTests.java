package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sliding log holds an entry per call in its window, so one of max 100,000 makes a key of about
 * 12 MB: freeing it with {@code DEL} holds Redis's main thread tens of milliseconds, while every
 * other decision waits. The limiter removes keys with {@code UNLINK}, which frees them off that
 * thread. On a Redis of its own, whose command statistics no other test touches.
 */
class LargeKeysIntegrationTests {

    private static EmbeddedRedis server;

    private static LettuceConnectionFactory connectionFactory;

    private static StringRedisTemplate redis;

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(redis, "large:", List.of());

    private final Limit log = Limit.of(100_000, Duration.ofMinutes(10)).withAlgorithm(Algorithm.SLIDING_LOG);

    @BeforeAll
    static void startRedis() {
        server = EmbeddedRedis.start();
        connectionFactory = server.newConnectionFactory();
        redis = new StringRedisTemplate(connectionFactory);
    }

    @AfterAll
    static void stopRedis() {
        connectionFactory.destroy();
        server.close();
    }

    @Test
    void aResetAndAnUnbanUnlinkTheKeysInsteadOfDeletingThem() {
        fill("reset-me");
        String state = RedisKeys.state("large:", "log", "reset-me");
        assertThat(redis.opsForZSet().size(state)).isEqualTo(100_000);
        Map<String, Long> before = server.commandCalls();
        this.limiter.reset("log", "reset-me");
        fill("unban-me");
        this.limiter.unban("log", "unban-me");
        Map<String, Long> after = server.commandCalls();
        assertThat(after.getOrDefault("unlink", 0L) - before.getOrDefault("unlink", 0L)).isEqualTo(3);
        assertThat(after.getOrDefault("del", 0L)).as("DEL calls").isEqualTo(before.getOrDefault("del", 0L));
        assertThat(redis.hasKey(state)).isFalse();
        assertThat(redis.hasKey(RedisKeys.state("large:", "log", "unban-me"))).isFalse();
        assertThat(this.limiter.tryAcquire("log", "reset-me", this.log).count()).isEqualTo(1);
    }

    private void fill(String key) {
        for (int call = 0; call < 100; call++) {
            assertThat(this.limiter.tryAcquire(List.of(new LimitRequest("log", key, this.log, 1_000))).allowed())
                .isTrue();
        }
    }

}
