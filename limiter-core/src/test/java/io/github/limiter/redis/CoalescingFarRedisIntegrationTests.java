package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Limit;
import io.github.limiter.test.Closer;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.DelayingProxy;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.internal.transport.LettuceTimeouts;
import io.github.limiter.internal.transport.ScriptRunner;
import io.lettuce.core.ClientOptions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coalescing with a Redis far away: a call that comes while a run is in flight does not wait for
 * that run's reply before it is sent, so it is decided within the timeout whenever a call alone
 * would be. 64 threads make 10 calls each, with Redis 150 ms (half the 300 ms timeout) or 180 ms
 * away behind a proxy; uncoalesced, for comparison, none is undecided.
 */
class CoalescingFarRedisIntegrationTests {

    // long enough that a busy machine's own delays stay small beside it
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "far-" + UUID.randomUUID() + ":";

    private EmbeddedRedis server;

    private DelayingProxy proxy;

    private LettuceConnectionFactory connection;

    @BeforeEach
    void start() {
        this.server = EmbeddedRedis.start();
        this.proxy = DelayingProxy.start(this.server.host(), this.server.port());
    }

    @AfterEach
    void stop() {
        if (this.connection != null) {
            this.connection.destroy();
        }
        this.proxy.close();
        this.server.close();
    }

    @ParameterizedTest(name = "max batch {0}, Redis {1} ms away")
    @CsvSource({ "64, 150", "64, 180", "1, 150" })
    void atMostOnePercentOfConcurrentCallsIsUndecided(int maxBatch, int roundTripMillis) {
        RedisRateLimiter limiter = limiter(maxBatch);
        this.proxy.delay(Duration.ofMillis(roundTripMillis / 2));
        Limit generous = Limit.of(1000, Duration.ofMinutes(1));
        AtomicInteger undecided = new AtomicInteger();
        Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
        AtomicInteger thread = new AtomicInteger();
        Concurrency.run(64, () -> {
            String key = "user-" + thread.incrementAndGet();
            for (int i = 0; i < 10; i++) {
                try {
                    limiter.tryAcquire("far", key, generous);
                }
                catch (DataAccessException ex) {
                    undecided.incrementAndGet();
                    failures.computeIfAbsent(String.valueOf(ex.getMessage()), message -> new AtomicInteger())
                        .incrementAndGet();
                }
            }
        });
        assertThat(undecided.get()).as("undecided of 640 calls: %s", failures).isLessThanOrEqualTo(6);
        if (maxBatch > 1) {
            // still coalesced: calls that wait go together, only sooner
            assertThat(limiter.runners.coalescing().runs()).as("script calls for 640 decisions").isLessThan(320);
        }
    }

    private RedisRateLimiter limiter(int maxBatch) {
        // as the starter's own connection: commands refused while disconnected, the limiter's timeouts
        this.connection = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(this.proxy.host(), this.proxy.port()),
                LettuceClientConfiguration.builder()
                    .commandTimeout(Duration.ofSeconds(2))
                    .clientOptions(ClientOptions.builder()
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .timeoutOptions(LettuceTimeouts.options(TIMEOUT, ScriptRunner.LATE_REPLY_WINDOW))
                        .build())
                    .build());
        this.connection.afterPropertiesSet();
        this.connection.start();
        RedisRateLimiter limiter = this.closing.add(
                Limiters.of(new StringRedisTemplate(this.connection), this.prefix,
                List.of(), null, maxBatch));
        limiter.check();
        return limiter;
    }

}
