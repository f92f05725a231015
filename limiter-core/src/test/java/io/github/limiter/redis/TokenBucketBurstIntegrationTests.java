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
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A token bucket whose burst differs from its rate ("10 a second, bursts of 100", Spring Cloud
 * Gateway's replenishRate and burstCapacity, Bucket4j's capacity and refill), on real Redis: a key
 * that saved up takes the burst at once, then gets the rate; the refusal's wait follows the rate.
 */
@WithRedis
class TokenBucketBurstIntegrationTests {

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(RedisServerExtension.template(),
            "burst-" + UUID.randomUUID() + ":", List.of());

    @Test
    void aKeyTakesItsBurstAtOnceThenTheRate() {
        // 10 tokens a minute: none comes back while the test runs
        Limit limit = Limit.of(10, Duration.ofMinutes(1)).withAlgorithm(Algorithm.TOKEN_BUCKET).withBurst(100);
        String key = "saver-" + UUID.randomUUID();
        Decision first = this.limiter.tryAcquire("bursty", key, limit);
        assertThat(first.allowed()).isTrue();
        assertThat(first.limit()).as("the rate").isEqualTo(10);
        assertThat(first.remaining()).as("what the bucket still holds").isEqualTo(99);
        for (int call = 2; call <= 100; call++) {
            assertThat(this.limiter.tryAcquire("bursty", key, limit).allowed()).as("call %d", call).isTrue();
        }
        Decision refused = this.limiter.tryAcquire("bursty", key, limit);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        // one token at 10 a minute: 6 seconds, whatever the burst
        assertThat(refused.retryAfter()).isGreaterThan(Duration.ofMillis(5_000))
            .isLessThanOrEqualTo(Duration.ofMillis(6_000));
    }

    @Test
    void aBucketWithoutABurstHoldsMaxAsBefore() {
        Limit limit = Limit.of(10, Duration.ofMinutes(1)).withAlgorithm(Algorithm.TOKEN_BUCKET);
        String key = "plain-" + UUID.randomUUID();
        for (int call = 1; call <= 10; call++) {
            assertThat(this.limiter.tryAcquire("plain", key, limit).allowed()).isTrue();
        }
        assertThat(this.limiter.tryAcquire("plain", key, limit).allowed()).isFalse();
    }

    @Test
    void anEmptiedBurstRefillsAtTheRateUpToTheBurst() {
        // 5 tokens per 500 ms (one per 100 ms), a bucket of 20: emptied, then refilled in 2 s
        Limit limit = Limit.of(5, Duration.ofMillis(500)).withAlgorithm(Algorithm.TOKEN_BUCKET).withBurst(20);
        String key = "refill-" + UUID.randomUUID();
        int taken = 0;
        while (this.limiter.tryAcquire("refilling", key, limit).allowed()) {
            taken++;
        }
        assertThat(taken).as("the burst, and what came back meanwhile").isBetween(20, 30);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long remaining = 0;
        while (remaining < 19 && System.nanoTime() < deadline) {
            remaining = this.limiter.state("refilling", key, limit).count() == 0 ? 20 : remaining;
        }
        assertThat(remaining).as("the bucket refilled, in a bounded wait").isEqualTo(20);
        Decision full = this.limiter.tryAcquire("refilling", key, limit);
        assertThat(full.remaining()).as("a full bucket holds the burst, not max").isEqualTo(19);
    }

    @Test
    void aBurstIsATokenBucketsAndAtLeastMax() {
        Limit window = Limit.of(10, Duration.ofSeconds(1));
        assertThatIllegalArgumentException().isThrownBy(() -> window.withBurst(100))
            .withMessageContaining("burst 100 is a token bucket's");
        Limit bucket = window.withAlgorithm(Algorithm.TOKEN_BUCKET);
        assertThatIllegalArgumentException().isThrownBy(() -> bucket.withBurst(5))
            .withMessageContaining("burst 5 is below max (10)");
        assertThat(bucket.withBurst(10).capacity()).isEqualTo(10);
        assertThat(bucket.capacity()).isEqualTo(10);
    }

}
