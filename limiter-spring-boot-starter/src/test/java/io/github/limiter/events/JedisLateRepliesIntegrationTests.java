package io.github.limiter.events;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * With Jedis, both ways Spring Data Redis hands out connections (Spring Data Redis 3's one Jedis per
 * connection, as {@code useUnifiedJedis=false} still does; 4's shared client over a pool): a
 * decision Redis makes after its call timed out is read and reported, and the pooled connection it
 * was read on gets its own timeout back, so the next command on it still fails within the timeout.
 */
class JedisLateRepliesIntegrationTests {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    /** What a busy machine may add to a deadline. */
    private static final long MARGIN_MS = 400;

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "jedis-late-" + UUID.randomUUID() + ":";

    @ParameterizedTest(name = "unified client {0}")
    @ValueSource(booleans = { false, true })
    void aLateDecisionIsReportedAndItsConnectionGetsItsTimeoutBack(boolean unified) {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            GenericObjectPoolConfig<Object> pool = new GenericObjectPoolConfig<>();
            // one connection: the admin read below gets the one the late reply was read on
            pool.setMaxTotal(1);
            pool.setMaxWait(TIMEOUT);
            JedisConnectionFactory factory = new JedisConnectionFactory(
                    new RedisStandaloneConfiguration(redis.host(), redis.port()),
                    JedisClientConfiguration.builder().readTimeout(TIMEOUT).usePooling().poolConfig(pool).build());
            factory.setUseUnifiedJedis(unified);
            factory.afterPropertiesSet();
            factory.start();
            try {
                List<Decision> late = new CopyOnWriteArrayList<>();
                RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(new StringRedisTemplate(factory))
                    .keyPrefix(this.prefix)
                    .listeners(List.of(new RateLimitListener() {

                        @Override
                        public void onLateDecision(List<LimitRequest> requests, List<Decision> decisions) {
                            late.addAll(decisions);
                        }

                    }))
                    .localCache(100, Duration.ofMinutes(1))
                    .maxBatch(1)
                    .build());
                limiter.check();
                LimitRequest mallory = LimitRequest.of(Node.LIMIT_ID, "mallory", Node.LIMIT);
                limiter.tryAcquire(List.of(mallory));
                limiter.tryAcquire(List.of(mallory));

                redis.withCommands(commands -> commands.clientPause(800));
                long start = System.nanoTime();
                assertThatExceptionOfType(DataAccessException.class)
                    .isThrownBy(() -> limiter.tryAcquire(List.of(mallory)));
                assertThat(millisSince(start)).as("the caller waits at most the timeout").isLessThan(200 + MARGIN_MS);
                assertThat(Node.await(Duration.ofSeconds(5), () -> !late.isEmpty())).as("told late").isTrue();
                assertThat(late).singleElement().satisfies(decision -> assertThat(decision.banStarted()).isTrue());

                // the same connection, paused again: an admin read fails within the timeout, not the late window
                redis.withCommands(commands -> commands.clientPause(800));
                long adminStart = System.nanoTime();
                assertThatExceptionOfType(DataAccessException.class)
                    .isThrownBy(() -> limiter.state(Node.LIMIT_ID, "mallory", Node.LIMIT));
                assertThat(millisSince(adminStart)).as("an admin read on the same connection, ms")
                    .isLessThan(200 + MARGIN_MS);
            }
            finally {
                factory.destroy();
            }
        }
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

}
