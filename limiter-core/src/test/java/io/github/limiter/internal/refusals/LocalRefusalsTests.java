package io.github.limiter.internal.refusals;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LocalRefusalsTests {

    private static final Limit LIMIT = Limit.of(1, Duration.ofMinutes(1));

    @Test
    void aFullMemoryOfLiveEntriesIsSweptOncePerIntervalNotOncePerRefusal() {
        LocalRefusals local = new LocalRefusals(100, Duration.ofHours(1), Duration.ofHours(1));
        for (int key = 0; key < 100; key++) {
            remember(local, "k" + key, Duration.ofMinutes(1));
        }
        for (int key = 100; key < 10_100; key++) {
            remember(local, "k" + key, Duration.ofMinutes(1));
        }
        assertThat(local.size()).isEqualTo(100);
        assertThat(local.sweeps()).as("sweeps for 10,000 refusals past a full memory").isEqualTo(1);
        assertThat(refuse(local, "k0")).as("the first keys are still refused").isNotNull();
        assertThat(refuse(local, "k100")).as("keys past a full memory are asked of Redis").isNull();
    }

    @Test
    void aFullMemoryOfExpiredEntriesMakesRoomAtTheNextSweep() {
        LocalRefusals local = new LocalRefusals(3, Duration.ofHours(1), Duration.ofMillis(1));
        for (int key = 0; key < 3; key++) {
            remember(local, "old" + key, Duration.ofNanos(1));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (refuse(local, "new") == null && System.nanoTime() < deadline) {
            remember(local, "new", Duration.ofMinutes(1));
        }
        assertThat(refuse(local, "new")).as("remembered once the expired entries are swept").isNotNull();
        assertThat(local.size()).isEqualTo(1);
    }

    @Test
    void refusesUntilTheRetryInstantAndOnlyCallsAsLargeAsTheRefusedOne() {
        LocalRefusals local = new LocalRefusals(10, Duration.ofHours(1));
        remember(local, "k", Duration.ofMinutes(1));
        Decision refused = refuse(local, "k");
        assertThat(refused).isNotNull();
        assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
        assertThat(local.refuse("k", new LimitRequest("id", "k", LIMIT, 0))).as("a call taking no permit").isNull();
        local.invalidate("k");
        assertThat(refuse(local, "k")).isNull();
    }

    private static void remember(LocalRefusals local, String key, Duration retryAfter) {
        local.remember(key, new LimitRequest("id", key, LIMIT, 1),
                new Decision("id", key, Outcome.REJECTED, 1, 1, 0, retryAfter, retryAfter, false, false, false, false));
    }

    private static Decision refuse(LocalRefusals local, String key) {
        return local.refuse(key, new LimitRequest("id", key, LIMIT, 1));
    }

}
