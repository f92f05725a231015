package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the algorithms differ over time, on real Redis time. Every assertion is on
 * {@link Trace clock-bracketed} calls, so it holds whatever the scheduling jitter.
 */
@WithRedis
class AlgorithmTimingIntegrationTests {

    private static final Duration WINDOW = Duration.ofMillis(400);

    private static final int MAX = 10;

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(RedisServerExtension.template(),
            "timing-" + UUID.randomUUID() + ":", List.of());

    @Test
    void fixedWindowAdmitsAlmostTwiceMaxAcrossAWindowEdge() {
        Trace trace = edgeBurst(Algorithm.FIXED_WINDOW);
        assertThat(trace.mostWithin(WINDOW)).as("calls within one window length").isGreaterThanOrEqualTo(2 * MAX - 1);
    }

    @Test
    void slidingLogNeverAdmitsMoreThanMaxInAnyWindow() {
        Trace trace = edgeBurst(Algorithm.SLIDING_LOG);
        assertThat(trace.allowed()).isGreaterThanOrEqualTo(MAX);
        assertThat(trace.mostWithin(WINDOW)).isLessThanOrEqualTo(MAX);
    }

    @Test
    void slidingWindowStaysWithinTwiceMaxOnTheSameEdgeBurst() {
        Trace trace = edgeBurst(Algorithm.SLIDING_WINDOW);
        assertThat(trace.mostWithin(WINDOW)).isLessThanOrEqualTo(2 * MAX);
    }

    @Test
    void tokenBucketAdmitsABurstOfMaxThenTheRate() {
        Trace trace = edgeBurst(Algorithm.TOKEN_BUCKET);
        // max at once, plus max per window: at most 2 x max (and one for rounding) in a window
        assertThat(trace.mostWithin(WINDOW)).isLessThanOrEqualTo(2 * MAX + 1);
    }

    @Test
    void tokenBucketRefillsOneTokenPerWindowOverMax() {
        // one token every 500 ms: far slower than five calls in a row, even on a loaded machine
        Limit limit = Limit.of(5, Duration.ofMillis(2500)).withAlgorithm(Algorithm.TOKEN_BUCKET);
        String key = "refill-" + UUID.randomUUID();
        for (int i = 0; i < 5; i++) {
            assertThat(this.limiter.tryAcquire("bucket", key, limit).allowed()).isTrue();
        }
        long rejectedAt = Trace.nowMicros();
        Decision rejected = this.limiter.tryAcquire("bucket", key, limit);
        assertThat(rejected.allowed()).isFalse();
        assertThat(rejected.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(500));

        long deadline = rejectedAt + 3_000_000;
        long allowedBy = 0;
        while (allowedBy == 0 && Trace.nowMicros() < deadline) {
            allowedBy = this.limiter.tryAcquire("bucket", key, limit).allowed() ? Trace.nowMicros() : 0;
        }
        assertThat(allowedBy).as("a token came back").isPositive();
        // decided no earlier than the retry-after (less the millisecond it is rounded up by)
        assertThat(allowedBy - rejectedAt).isGreaterThanOrEqualTo(rejected.retryAfter().toNanos() / 1000 - 1000);

        Trace steady = new Trace();
        long start = Trace.nowMicros();
        while (Trace.nowMicros() < start + 1_500_000) {
            steady.call(() -> this.limiter.tryAcquire("bucket", key, limit).allowed());
        }
        // the bucket is empty: it gives a token per 500 ms, never the burst again
        assertThat(steady.mostWithin(Duration.ofMillis(1000))).isLessThanOrEqualTo(3);
        assertThat(steady.allowed()).isBetween(1, 4);
    }

    @Test
    void slidingWindowWeighsThePreviousWindowByItsOverlap() {
        Duration window = Duration.ofMillis(1000);
        Limit limit = Limit.of(MAX, window).withAlgorithm(Algorithm.SLIDING_WINDOW);
        String key = "weight-" + UUID.randomUUID();
        long windowMicros = window.toNanos() / 1000;
        long edge = (Trace.nowMicros() / windowMicros + 1) * windowMicros;
        Trace.until(edge + 1000);
        for (int i = 0; i < 8; i++) {
            this.limiter.tryAcquire("weight", key, limit);
        }
        long next = edge + windowMicros;
        for (long at : new long[] { next + 100_000, next + 500_000, next + 900_000 }) {
            Trace.until(at);
            long before = Trace.nowMicros();
            long count = this.limiter.state("weight", key, limit).count();
            long after = Trace.nowMicros();
            // 8 calls in the previous window, weighted by the part of it the last window still
            // covers; Redis counts elapsed time in whole milliseconds
            long windowMillis = window.toMillis();
            long most = 8 * (windowMillis - (before - next) / 1000) / windowMillis;
            long least = 8 * (windowMillis - (after - next) / 1000) / windowMillis;
            assertThat(count).as("estimate at %d ms into the window", (at - next) / 1000).isBetween(least, most);
        }
    }

    /**
     * The same trace for every algorithm: one call opens the window, then calls as fast as
     * possible from shortly before the window's end to well after it.
     */
    private Trace edgeBurst(Algorithm algorithm) {
        Limit limit = Limit.of(MAX, WINDOW).withAlgorithm(algorithm);
        String key = "edge-" + UUID.randomUUID();
        Trace trace = new Trace();
        long windowMicros = WINDOW.toNanos() / 1000;
        if (algorithm == Algorithm.SLIDING_WINDOW || algorithm == Algorithm.FIXED_WINDOW) {
            // their windows are aligned: start just after an edge, like the others' first call
            Trace.until((Trace.nowMicros() / windowMicros + 1) * windowMicros + 1000);
        }
        long opened = Trace.nowMicros();
        trace.call(() -> this.limiter.tryAcquire("edge", key, limit).allowed());
        Trace.until(opened + windowMicros - 60_000);
        while (Trace.nowMicros() < opened + windowMicros + 150_000) {
            trace.call(() -> this.limiter.tryAcquire("edge", key, limit).allowed());
        }
        assertThat(trace.calls()).isGreaterThan(3 * MAX);
        return trace;
    }

}
