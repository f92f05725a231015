package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every algorithm guarantees alike: exact counts under concurrency, the same alert and ban
 * tiers, a TTL on every key, costs, and exact arithmetic for large limits.
 */
@WithRedis
class AlgorithmsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Duration DAY = Duration.ofDays(1);

    private final String prefix = "algo-" + UUID.randomUUID() + ":";

    private final List<Object> events = new CopyOnWriteArrayList<>();

    @AutoClose
    private final RedisRateLimiter limiter = RedisRateLimiter.builder(redis).keyPrefix(this.prefix)
        .publishEvents(this.events::add)
        .build();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void exactlyMaxCallsPassWhen64ThreadsHammerOneKey(Algorithm algorithm) throws Exception {
        Limit limit = Limit.of(300, DAY).withAlgorithm(algorithm);
        AtomicInteger allowed = new AtomicInteger();
        inOneAlignedWindow(DAY, () -> {
            allowed.set(0);
            String key = "hot-" + UUID.randomUUID();
            Concurrency.run(64, () -> {
                for (int i = 0; i < 10; i++) {
                    if (this.limiter.tryAcquire("hammer", key, limit).allowed()) {
                        allowed.incrementAndGet();
                    }
                }
            });
        });
        assertThat(allowed.get()).isEqualTo(300);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void alertsOnceBansOnceAndDoesNotCountBannedCalls(Algorithm algorithm) {
        Limit limit = Limit.of(5, DAY).withAlgorithm(algorithm).withAlertAt(2).withBanFor(Duration.ofMinutes(10));
        List<Decision> decisions = new ArrayList<>();
        inOneAlignedWindow(DAY, () -> {
            decisions.clear();
            this.events.clear();
            String key = "tiers-" + UUID.randomUUID();
            for (int call = 1; call <= 9; call++) {
                decisions.add(this.limiter.tryAcquire("tiers", key, limit));
            }
        });
        assertThat(decisions).extracting(Decision::outcome)
            .containsExactly(Outcome.ALLOWED, Outcome.ALLOWED, Outcome.ALLOWED, Outcome.ALLOWED, Outcome.ALLOWED,
                    Outcome.BANNED, Outcome.BANNED, Outcome.BANNED, Outcome.BANNED);
        assertThat(decisions).extracting(Decision::alertRaised)
            .containsExactly(false, false, true, false, false, false, false, false, false);
        assertThat(decisions).extracting(Decision::banStarted)
            .containsExactly(false, false, false, false, false, true, false, false, false);
        assertThat(decisions).extracting(Decision::count).containsExactly(1L, 2L, 3L, 4L, 5L, 5L, 5L, 5L, 5L);
        assertThat(decisions.get(5).retryAfter()).isEqualTo(Duration.ofMinutes(10));
        assertThat(this.events).hasSize(2);
        assertThat(this.events.get(0)).isInstanceOf(RateLimitAlertEvent.class);
        assertThat(this.events.get(1)).isInstanceOf(RateLimitBanEvent.class);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void rejectsWithRemainingAndRetryAfterLikeTheFixedWindow(Algorithm algorithm) {
        Limit limit = Limit.of(3, Duration.ofHours(1)).withAlgorithm(algorithm);
        List<Decision> decisions = new ArrayList<>();
        inOneAlignedWindow(Duration.ofHours(1), () -> {
            decisions.clear();
            String key = "retry-" + UUID.randomUUID();
            for (int call = 1; call <= 4; call++) {
                decisions.add(this.limiter.tryAcquire("retry", key, limit));
            }
        });
        assertThat(decisions).extracting(Decision::remaining).containsExactly(2L, 1L, 0L, 0L);
        Decision rejected = decisions.get(3);
        assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
        // the two-counter window may have to wait out this window and then part of the next,
        // where this window's calls still weigh
        Duration longest = (algorithm == Algorithm.SLIDING_WINDOW) ? Duration.ofHours(2) : Duration.ofHours(1);
        assertThat(rejected.retryAfter()).isPositive().isLessThanOrEqualTo(longest);
        assertThat(decisions.get(0).retryAfter()).isZero();
        assertThat(decisions.get(0).resetAfter()).isPositive().isLessThanOrEqualTo(Duration.ofHours(2));
        // a refused call and a read of the state report when the state is gone or the window ends;
        // the sliding log's is when its newest call leaves the window, made a moment ago
        LimitState state = this.limiter.state("retry", rejected.key(), limit);
        for (Duration reset : List.of(rejected.resetAfter(), state.resetAfter())) {
            assertThat(reset).isPositive().isLessThanOrEqualTo(Duration.ofHours(2));
            if (algorithm == Algorithm.SLIDING_LOG) {
                assertThat(reset).isGreaterThan(Duration.ofMinutes(59));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyKeyWrittenCarriesATtlAndAllExpire(Algorithm algorithm) throws Exception {
        Limit limit = Limit.of(3, Duration.ofMillis(5)).withAlgorithm(algorithm).withAlertAt(1)
            .withBanFor(Duration.ofMillis(5));
        AtomicBoolean running = new AtomicBoolean(true);
        Set<String> immortal = ConcurrentHashMap.newKeySet();
        Set<String> tooLong = ConcurrentHashMap.newKeySet();
        AtomicInteger sampled = new AtomicInteger();
        ExecutorService watcher = Executors.newSingleThreadExecutor();
        Future<?> watching = watcher.submit(() -> {
            while (running.get()) {
                for (String key : redis.keys(this.prefix + "*")) {
                    Long pttl = redis.getExpire(key, TimeUnit.MILLISECONDS);
                    sampled.incrementAndGet();
                    if (pttl != null && pttl == -1) {
                        immortal.add(key);
                    }
                    // no longer than the state needs: two windows for the two-counter state
                    if (pttl != null && pttl > 10) {
                        tooLong.add(key + " " + pttl);
                    }
                }
            }
        });
        try {
            Concurrency.run(16, () -> {
                for (int i = 0; i < 150; i++) {
                    this.limiter.tryAcquire("ttl", "user-" + (i % 20), limit);
                }
            });
        }
        finally {
            running.set(false);
            watching.get(10, TimeUnit.SECONDS);
            watcher.shutdown();
        }
        assertThat(sampled.get()).isPositive();
        assertThat(immortal).isEmpty();
        assertThat(tooLong).isEmpty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!redis.keys(this.prefix + "*").isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(redis.keys(this.prefix + "*")).as("every key expired").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aCallTakesItsCost(Algorithm algorithm) {
        Limit limit = Limit.of(10, DAY).withAlgorithm(algorithm);
        List<Decision> decisions = new ArrayList<>();
        inOneAlignedWindow(DAY, () -> {
            decisions.clear();
            String key = "cost-" + UUID.randomUUID();
            decisions.add(this.limiter.tryAcquire(List.of(new LimitRequest("cost", key, limit, 7))));
            decisions.add(this.limiter.tryAcquire(List.of(new LimitRequest("cost", key, limit, 4))));
            decisions.add(this.limiter.tryAcquire(List.of(new LimitRequest("cost", key, limit, 0))));
            decisions.add(this.limiter.tryAcquire(List.of(new LimitRequest("cost", key, limit, 3))));
        });
        assertThat(decisions).extracting(Decision::outcome)
            .containsExactly(Outcome.ALLOWED, Outcome.REJECTED, Outcome.ALLOWED, Outcome.ALLOWED);
        assertThat(decisions).extracting(Decision::count).containsExactly(7L, 7L, 7L, 10L);
    }

    /**
     * A limit changed while the application runs (a policy override) reads the key's state as it
     * is: a lower max refuses a key already past it, a higher one lets it go on from its count; a
     * new window keeps the count (fixed window, sliding log), the tokens in use (token bucket), or
     * starts the count afresh (sliding window: its counts are per aligned window of the old length).
     */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aChangedLimitReadsTheKeysStateAsItIs(Algorithm algorithm) {
        Limit twenty = Limit.of(20, DAY).withAlgorithm(algorithm);
        List<Decision> decisions = new ArrayList<>();
        long[] afterNewWindow = new long[1];
        inOneAlignedWindow(DAY, () -> {
            decisions.clear();
            String key = "changed-" + UUID.randomUUID();
            for (int call = 0; call < 7; call++) {
                this.limiter.tryAcquire("changed", key, twenty);
            }
            decisions.add(this.limiter.tryAcquire("changed", key, Limit.of(5, DAY).withAlgorithm(algorithm)));
            decisions.add(this.limiter.tryAcquire("changed", key, Limit.of(30, DAY).withAlgorithm(algorithm)));
            afterNewWindow[0] = this.limiter
                .tryAcquire("changed", key, Limit.of(30, DAY.multipliedBy(2)).withAlgorithm(algorithm))
                .count();
        });
        assertThat(decisions.get(0).outcome()).as("max 5 refuses a key at 7").isEqualTo(Outcome.REJECTED);
        assertThat(decisions.get(0).count()).isEqualTo(7L);
        assertThat(decisions.get(1).outcome()).as("max 30 lets it go on").isEqualTo(Outcome.ALLOWED);
        assertThat(decisions.get(1).count()).as("counting on from 7").isEqualTo(8L);
        long expected = (algorithm == Algorithm.SLIDING_WINDOW) ? 1L : 9L;
        assertThat(afterNewWindow[0]).as("count after the window doubled").isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void staysExactForTheLargestLimitOfADay(Algorithm algorithm) {
        long max = switch (algorithm) {
            case SLIDING_WINDOW, TOKEN_BUCKET -> (1L << 53) / (3 * DAY.toMillis());
            case FIXED_WINDOW -> 1L << 49;
            case SLIDING_LOG -> (1L << 53) - 1;
        };
        Limit limit = new Limit(algorithm, max, DAY, 0, null, Limit.Mode.ENFORCE);
        List<Decision> decisions = new ArrayList<>();
        inOneAlignedWindow(DAY, () -> {
            decisions.clear();
            String key = "large-" + UUID.randomUUID();
            decisions.add(this.limiter.tryAcquire("large", key, limit));
            decisions.add(this.limiter.tryAcquire("large", key, limit));
        });
        assertThat(decisions.get(0).remaining()).isEqualTo(max - 1);
        assertThat(decisions.get(0).count()).isEqualTo(1L);
        if (algorithm == Algorithm.TOKEN_BUCKET) {
            // this bucket refills a token every 2.5 ms: on a busy machine the second call may find
            // the first one's token back, never more (a precision loss would be far off either way)
            assertThat(decisions.get(1).remaining()).isBetween(max - 2, max - 1);
            assertThat(decisions.get(1).count()).isBetween(1L, 2L);
        }
        else {
            assertThat(decisions.get(1).remaining()).isEqualTo(max - 2);
            assertThat(decisions.get(1).count()).isEqualTo(2L);
        }
    }

    /**
     * Runs {@code work} again if it straddled the edge of an aligned window of this length, where
     * the two-counter algorithm legitimately starts counting anew.
     */
    private static void inOneAlignedWindow(Duration window, ThrowingRunnable work) {
        for (int attempt = 0; attempt < 3; attempt++) {
            long before = redisMillis() / window.toMillis();
            try {
                work.run();
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
            if (redisMillis() / window.toMillis() == before) {
                return;
            }
        }
        throw new IllegalStateException("Could not run within one aligned window of " + window);
    }

    private static long redisMillis() {
        return redis.execute((org.springframework.data.redis.core.RedisCallback<Long>) connection -> connection
            .serverCommands()
            .time(TimeUnit.MILLISECONDS));
    }

    @FunctionalInterface
    interface ThrowingRunnable {

        void run() throws Exception;

    }

}
