package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.Closer;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.internal.transport.Deadlines;
import io.github.limiter.internal.transport.LettuceScriptRunner;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coalesced decisions: calls made while another is in flight go together in one script call, each
 * decided as if alone; a lone call goes at once, on its own; failures reach each caller.
 */
class CoalescingIntegrationTests {

    // the runners of this class's tests share a timer, as those of one limiter do
    private static final Deadlines deadlines = new Deadlines();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "coalescing-" + UUID.randomUUID() + ":";

    private final Limit fivePerMinute = Limit.of(5, Duration.ofMinutes(1));

    private EmbeddedRedis server;

    private LettuceConnectionFactory connection;

    private StringRedisTemplate redis;

    @BeforeEach
    void start() {
        this.server = EmbeddedRedis.start();
        this.connection = connect(Duration.ofSeconds(10));
        this.redis = new StringRedisTemplate(this.connection);
    }

    @AfterEach
    void stop() {
        this.connection.destroy();
        this.server.close();
    }

    @Test
    void manyThreadsOnOneKeyGetExactlyMaxInFewerScriptCalls() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(this.redis, this.prefix, List.of()));
        limiter.check();
        Limit fifty = Limit.of(50, Duration.ofMinutes(1));
        AtomicInteger allowed = new AtomicInteger();
        Concurrency.run(64, () -> {
            for (int i = 0; i < 10; i++) {
                if (limiter.tryAcquire("exact", "one", fifty).allowed()) {
                    allowed.incrementAndGet();
                }
            }
        });
        assertThat(allowed).hasValue(50);
        assertThat(limiter.state("exact", "one", fifty).count()).isEqualTo(50);
        CoalescingScriptRunner coalescing = limiter.runners.coalescing();
        assertThat(coalescing).isNotNull();
        assertThat(coalescing.runs()).as("script calls for 640 decisions").isLessThan(640);
        assertThat(coalescing.coalesced()).isPositive();
    }

    @Test
    void asynchronousCallsOnManyKeysAndAlgorithmsAreEachDecidedAsAlone() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(this.redis, this.prefix, List.of()));
        limiter.check();
        List<Limit> limits = List.of(this.fivePerMinute, this.fivePerMinute.withAlgorithm(Algorithm.SLIDING_LOG),
                this.fivePerMinute.withAlgorithm(Algorithm.SLIDING_WINDOW),
                this.fivePerMinute.withAlgorithm(Algorithm.TOKEN_BUCKET),
                this.fivePerMinute.withAlertAt(3).withBanFor(Duration.ofMinutes(1)));
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        // 8 calls per key and limit, all sent before any answer: at most 5 of each pass
        for (int call = 0; call < 8; call++) {
            for (int l = 0; l < limits.size(); l++) {
                for (int key = 0; key < 10; key++) {
                    decisions.add(limiter.tryAcquireAsync("mixed-" + l, "k" + key, limits.get(l)).toCompletableFuture());
                }
            }
        }
        CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new)).join();
        for (int l = 0; l < limits.size(); l++) {
            for (int key = 0; key < 10; key++) {
                int index = l * 10 + key;
                long passed = 0;
                for (int call = 0; call < 8; call++) {
                    passed += decisions.get(call * limits.size() * 10 + index).join().allowed() ? 1 : 0;
                }
                assertThat(passed).as("limit %d, key %d", l, key).isEqualTo(5);
                assertThat(limiter.state("mixed-" + l, "k" + key, limits.get(l)).count()).isEqualTo(5);
            }
        }
        assertThat(limiter.banTimeLeft("mixed-4", "k0")).isPositive();
        assertThat(limiter.runners.coalescing().coalesced()).isPositive();
    }

    @Test
    void aLoneCallIsSentAtOnceOnItsOwn() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(this.redis, this.prefix, List.of()));
        limiter.check();
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("alone", "k", this.fivePerMinute).allowed()).isTrue();
        }
        assertThat(limiter.runners.coalescing().runs()).isEqualTo(3);
        assertThat(limiter.runners.coalescing().coalesced()).isZero();
    }

    @Test
    void callsMadeWhileOneIsInFlightGoTogetherAndOneThatFailsFailsAlone() {
        CoalescingScriptRunner runner = runner(this.redis, 64);
        this.redis.opsForList().leftPush(this.prefix + "{wrong:k}", "value");
        pauseRedis(500);
        CompletableFuture<List<Long>> first = runner.run(call("{first:k}"));
        CompletableFuture<List<Long>> good = runner.run(call("{good:k}"));
        CompletableFuture<List<Long>> wrong = runner.run(call("{wrong:k}"));
        CompletableFuture<List<Long>> again = runner.run(call("{good:k}"));
        assertThat(first.join().get(0)).isEqualTo(DecisionScript.ALLOWED);
        assertThat(good.join().subList(0, 2)).containsExactly(0L, 1L);
        assertThat(again.join().subList(0, 2)).containsExactly(0L, 2L);
        assertThat(wrong).failsWithin(Duration.ofSeconds(5))
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOf(DataAccessException.class)
            .havingRootCause()
            .withMessageContaining("WRONGTYPE");
        assertThat(runner.runs()).isEqualTo(2);
        assertThat(runner.coalesced()).isEqualTo(3);
    }

    @Test
    void aRunIsNoLargerThanTheMostAllowed() {
        CoalescingScriptRunner runner = runner(this.redis, 3);
        pauseRedis(300);
        List<CompletableFuture<List<Long>>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(runner.run(call("{bounded:k}")));
        }
        for (int i = 0; i < 8; i++) {
            assertThat(calls.get(i).join().get(1)).isEqualTo(Math.min(i + 1, 5));
        }
        // one alone, then 7 waiting in runs of 3, 3 and 1
        assertThat(runner.runs()).isEqualTo(4);
        assertThat(runner.coalesced()).isEqualTo(6);
    }

    @Test
    void aLostScriptCacheIsLoadedAgainForACoalescedRun() {
        CoalescingScriptRunner runner = runner(this.redis, 64);
        this.server.withCommands(commands -> commands.scriptFlush());
        pauseRedis(300);
        List<CompletableFuture<List<Long>>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(runner.run(call("{flushed:" + i + "}")));
        }
        calls.forEach(call -> assertThat(call.join().get(0)).isEqualTo(DecisionScript.ALLOWED));
        assertThat(runner.coalesced()).isEqualTo(3);
    }

    @Test
    void aRunThatTimesOutFailsEachOfItsCallsAndLaterCallsAreDecided() {
        LettuceConnectionFactory shortTimeout = connect(Duration.ofMillis(200));
        try {
            CoalescingScriptRunner runner = runner(new StringRedisTemplate(shortTimeout), 64, Duration.ofMillis(200));
            pauseRedis(600);
            List<CompletableFuture<List<Long>>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                calls.add(runner.run(call("{slow:" + i + "}")));
            }
            for (CompletableFuture<List<Long>> call : calls) {
                assertThat(call).failsWithin(Duration.ofSeconds(5))
                    .withThrowableOfType(ExecutionException.class)
                    .havingCause()
                    .isInstanceOf(DataAccessException.class);
            }
            // the group is free again: once the pause is over, calls are decided
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            boolean decided = false;
            while (!decided && System.nanoTime() < deadline) {
                decided = runner.run(call("{slow:after}")).handle((reply, failure) -> failure == null).join();
            }
            assertThat(decided).isTrue();
        }
        finally {
            shortTimeout.destroy();
        }
    }

    @Test
    void aCallThatWaitedForARunInFlightStillFailsWithinTheTimeoutFromWhenItWasMade() {
        Duration timeout = Duration.ofMillis(500);
        LettuceConnectionFactory shortTimeout = connect(timeout);
        try {
            CoalescingScriptRunner runner = runner(new StringRedisTemplate(shortTimeout), 64, timeout);
            pauseRedis(3000);
            List<CompletableFuture<Long>> failedAfterMillis = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                failedAfterMillis.add(runner.run(call("{stalled:" + i + "}"))
                    .handle((reply, failure) -> (failure instanceof DataAccessException)
                            ? (System.nanoTime() - start) / 1_000_000 : -1));
            }
            // the first is sent alone; the four that wait behind it fail at their own deadlines,
            // sent or not, rather than after its timeout and then their own run's: twice the timeout
            for (CompletableFuture<Long> millis : failedAfterMillis) {
                assertThat(millis.join()).isBetween(400L, 800L);
            }
            assertThat(runner.runs()).isBetween(1L, 2L);
        }
        finally {
            shortTimeout.destroy();
        }
    }

    @Test
    void theDeadlineIsTheConnectionsCommandTimeout() {
        LettuceConnectionFactory starterLike = new LettuceConnectionFactory(new RedisStandaloneConfiguration(),
                LettuceClientConfiguration.builder()
                    .commandTimeout(Duration.ofSeconds(2))
                    .clientOptions(ClientOptions.builder()
                        .timeoutOptions(TimeoutOptions.enabled(Duration.ofMillis(150)))
                        .build())
                    .build());
        assertThat(LettuceScriptRunner.commandTimeout(starterLike)).isEqualTo(Duration.ofMillis(150));
        LettuceConnectionFactory plain = new LettuceConnectionFactory(new RedisStandaloneConfiguration(),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(3)).build());
        assertThat(LettuceScriptRunner.commandTimeout(plain)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void withMaxBatchOneNothingIsCoalesced() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(this.redis, this.prefix, List.of(), null, 1));
        assertThat(limiter.runners.coalescing()).isNull();
        limiter.check();
        assertThat(Concurrency.countPassing(16, 5, () -> {
            if (!limiter.tryAcquire(List.of(new LimitRequest("off", "k", this.fivePerMinute, 1))).allowed()) {
                throw new IllegalStateException("refused");
            }
        }, IllegalStateException.class)).isEqualTo(5);
    }

    @AfterAll
    static void stopTheTimer() {
        deadlines.close();
    }

    /** A runner whose connection is open, so that a pause holds its first script call, not its handshake. */
    private static CoalescingScriptRunner runner(StringRedisTemplate redis, int maxBatch) {
        return runner(redis, maxBatch, Duration.ofSeconds(10));
    }

    private static CoalescingScriptRunner runner(StringRedisTemplate redis, int maxBatch, Duration timeout) {
        LettuceScriptRunner sender = new LettuceScriptRunner(redis, timeout, deadlines);
        sender.prepare();
        return new CoalescingScriptRunner(sender, maxBatch, false, timeout);
    }

    private DecisionArguments call(String key) {
        return new DecisionArguments(DecisionScript.ACQUIRE, 1).add(this.prefix + key, this.fivePerMinute, 1);
    }

    /** Holds every client's commands for a while, from a connection of its own. */
    private void pauseRedis(long millis) {
        this.server.withCommands(commands -> commands.clientPause(millis));
    }

    private LettuceConnectionFactory connect(Duration timeout) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(this.server.host(), this.server.port()),
                LettuceClientConfiguration.builder()
                    .commandTimeout(timeout)
                    .clientOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(timeout)).build())
                    .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

}
