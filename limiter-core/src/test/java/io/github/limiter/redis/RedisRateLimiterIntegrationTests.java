package io.github.limiter.redis;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Decision;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

@WithRedis
class RedisRateLimiterIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    // Each test writes under its own prefix, so tests can share the server.
    private final String prefix = "test-" + UUID.randomUUID() + ":";

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(redis, this.prefix, List.of());

    @Test
    void allowsMaxCallsThenRejectsWithRetryAfter() {
        Duration window = Duration.ofMinutes(1);
        for (int call = 1; call <= 3; call++) {
            Decision decision = this.limiter.tryAcquire("answers", "42", 3, window);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.count()).isEqualTo(call);
            assertThat(decision.remaining()).isEqualTo(3 - call);
            assertThat(decision.retryAfter()).isZero();
            assertThat(decision.resetAfter()).isPositive().isLessThanOrEqualTo(window);
        }
        Decision rejected = this.limiter.tryAcquire("answers", "42", 3, window);
        assertThat(rejected.allowed()).isFalse();
        assertThat(rejected.count()).isEqualTo(3);
        assertThat(rejected.remaining()).isZero();
        assertThat(rejected.limit()).isEqualTo(3);
        assertThat(rejected.retryAfter()).isPositive().isLessThanOrEqualTo(window).isEqualTo(rejected.resetAfter());
    }

    @Test
    void rejectedCallsAreNotCounted() {
        Duration window = Duration.ofMinutes(1);
        this.limiter.tryAcquire("answers", "42", 1, window);
        for (int i = 0; i < 5; i++) {
            assertThat(this.limiter.tryAcquire("answers", "42", 1, window).allowed()).isFalse();
        }
        assertThat(FixedWindows.count(redis, this.prefix + "{answers:42}")).isEqualTo(1);
    }

    @Test
    void writesOneHashTaggedKeyPerLimitAndKey() {
        Duration window = Duration.ofMinutes(1);
        this.limiter.tryAcquire("AnswerController.answer", "42", 5, window);
        this.limiter.tryAcquire("AnswerController.answer", "7", 5, window);
        this.limiter.tryAcquire("AnswerController.answer", "", 5, window);
        this.limiter.tryAcquire("Other.limit", "42", 5, window);
        assertThat(keys()).containsExactlyInAnyOrder(this.prefix + "{AnswerController.answer:42}",
                this.prefix + "{AnswerController.answer:7}", this.prefix + "{AnswerController.answer}",
                this.prefix + "{Other.limit:42}");
    }

    @Test
    void countsKeysAndLimitsIndependently() {
        Duration window = Duration.ofMinutes(1);
        assertThat(this.limiter.tryAcquire("a", "alice", 1, window).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire("a", "alice", 1, window).allowed()).isFalse();
        assertThat(this.limiter.tryAcquire("a", "bob", 1, window).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire("b", "alice", 1, window).allowed()).isTrue();
    }

    @Test
    void startsAFreshWindowOnceTheOldOneExpires() {
        Duration window = Duration.ofMillis(50);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        assertThat(this.limiter.tryAcquire("tiny", "k", 1, window).allowed()).isTrue();
        // a pause of this thread (a busy machine) can put two calls 50 ms apart, in two windows:
        // each allowed call starts a window, until one lands in the window before it
        Decision decision;
        do {
            decision = this.limiter.tryAcquire("tiny", "k", 1, window);
            assertThat(decision.count()).isEqualTo(1);
        }
        while (decision.allowed() && System.nanoTime() < deadline);
        assertThat(decision.allowed()).as("refused in the window").isFalse();
        do {
            decision = this.limiter.tryAcquire("tiny", "k", 1, window);
        }
        while (!decision.allowed() && System.nanoTime() < deadline);
        assertThat(decision.allowed()).as("allowed again after the window").isTrue();
        assertThat(decision.count()).isEqualTo(1);
    }

    @Test
    void exactlyMaxCallsPassWhen64ThreadsHammerOneKey() throws Exception {
        int threads = 64;
        int callsPerThread = 50;
        long max = 1000;
        AtomicInteger allowed = new AtomicInteger();
        Concurrency.run(threads, () -> {
            for (int i = 0; i < callsPerThread; i++) {
                if (this.limiter.tryAcquire("hot", "one-key", max, Duration.ofMinutes(5)).allowed()) {
                    allowed.incrementAndGet();
                }
            }
        });
        assertThat(threads * callsPerThread).isGreaterThan((int) max);
        assertThat(allowed.get()).isEqualTo(max);
        assertThat(FixedWindows.count(redis, this.prefix + "{hot:one-key}")).isEqualTo(max);
    }

    @Test
    void noKeyEverLivesWithoutTtlAndAllExpire() throws Exception {
        // The seeds' incident: a 5 ms window under load. A counter created by INCR and given its
        // expiry in a separate command would, sooner or later, be seen here with PTTL -1.
        Duration window = Duration.ofMillis(5);
        AtomicBoolean running = new AtomicBoolean(true);
        Set<String> immortal = ConcurrentHashMap.newKeySet();
        AtomicInteger sampled = new AtomicInteger();
        ExecutorService watcher = Executors.newSingleThreadExecutor();
        Future<?> watching = watcher.submit(() -> {
            while (running.get()) {
                for (String key : keys()) {
                    sampled.incrementAndGet();
                    Long pttl = redis.getExpire(key, TimeUnit.MILLISECONDS);
                    if (pttl != null && pttl == -1) {
                        immortal.add(key);
                    }
                }
            }
        });
        AtomicInteger decisions = new AtomicInteger();
        try {
            Concurrency.run(32, () -> {
                for (int i = 0; i < 200; i++) {
                    this.limiter.tryAcquire("burst", "user-" + (i % 50), 3, window);
                    decisions.incrementAndGet();
                }
            });
        }
        finally {
            running.set(false);
            watching.get(10, TimeUnit.SECONDS);
            watcher.shutdown();
        }
        assertThat(decisions.get()).isEqualTo(6400);
        assertThat(sampled.get()).as("keys sampled while the load ran").isPositive();
        assertThat(immortal).isEmpty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!keys().isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(keys()).as("every counter expired").isEmpty();
    }

    @Test
    void givesAnExpiryToACounterWrittenWithoutOne() {
        // the count of a window that ended, in a key written without expiry (by something else)
        String key = this.prefix + "{legacy:42}";
        redis.opsForHash().put(key, "1000", "1");
        assertThat(redis.getExpire(key)).isEqualTo(-1);
        Decision decision = this.limiter.tryAcquire("legacy", "42", 5, Duration.ofSeconds(30));
        assertThat(decision.count()).isEqualTo(1);
        assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).isPositive().isLessThanOrEqualTo(30_000);
    }

    @Test
    void stillDecidesAfterTheScriptCacheIsFlushed() {
        Duration window = Duration.ofMinutes(1);
        assertThat(this.limiter.tryAcquire("flush", "k", 2, window).count()).isEqualTo(1);
        redis.execute((org.springframework.data.redis.core.RedisCallback<Void>) connection -> {
            connection.scriptingCommands().scriptFlush();
            return null;
        });
        assertThat(this.limiter.tryAcquire("flush", "k", 2, window).count()).isEqualTo(2);
    }

    @Test
    void rejectsInvalidArgumentsWithClearMessages() {
        Duration window = Duration.ofSeconds(1);
        assertThatIllegalArgumentException().isThrownBy(() -> this.limiter.tryAcquire("a:b", "k", 1, window))
            .withMessageContaining("limitId 'a:b'");
        assertThatIllegalArgumentException().isThrownBy(() -> this.limiter.tryAcquire(" ", "k", 1, window))
            .withMessageContaining("must not be blank");
        assertThatIllegalArgumentException().isThrownBy(() -> this.limiter.tryAcquire("a", "k", 0, window))
            .withMessage("max 0 must be at least 1");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.limiter.tryAcquire("a", "k", 1, Duration.ofNanos(500)))
            .withMessageContaining("under 1 ms");
        assertThat(keys()).isEmpty();
    }

    private Set<String> keys() {
        Set<String> keys = new HashSet<>();
        try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(this.prefix + "*").count(1000).build())) {
            cursor.forEachRemaining(keys::add);
        }
        return keys;
    }

}
