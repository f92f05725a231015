package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.test.Closer;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

@WithRedis
class TiersIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "tiers-" + UUID.randomUUID() + ":";

    private final List<Object> events = new CopyOnWriteArrayList<>();

    @AutoClose
    private final RedisRateLimiter limiter = RedisRateLimiter.builder(redis).keyPrefix(this.prefix)
        .publishEvents(this.events::add)
        .build();

    private final Limit answers = Limit.of(20, Duration.ofMinutes(1)).withAlertAt(10).withBanFor(Duration.ofMinutes(15));

    @Test
    void theFirstCallPastAlertAtRaisesOneAlertAndStillPasses() {
        for (int call = 1; call <= 20; call++) {
            Decision decision = this.limiter.tryAcquire("answers", "alice", this.answers);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.alertRaised()).as("call %d alerts", call).isEqualTo(call == 11);
        }
        assertThat(this.events).containsExactly(new RateLimitAlertEvent("answers", "alice", 11, 10, Duration.ofMinutes(1)));
    }

    @Test
    void alertsAgainInTheNextWindow() {
        Limit tiny = Limit.of(5, Duration.ofMillis(200)).withAlertAt(1);
        // windows are periods of Redis's clock: the two calls start where one window has room for both
        FixedWindows.awaitRoom(redis, Duration.ofMillis(200), Duration.ofMillis(150));
        this.limiter.tryAcquire("tiny", "k", tiny);
        assertThat(this.limiter.tryAcquire("tiny", "k", tiny).alertRaised()).isTrue();
        awaitNewWindow("tiny", "k", tiny);
        assertThat(this.limiter.tryAcquire("tiny", "k", tiny).alertRaised()).isTrue();
        assertThat(this.events).hasSize(2);
    }

    @Test
    void goingPastMaxBansTheKeyOnceAndBannedCallsAreNotCounted() {
        Limit limit = Limit.of(3, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(15));
        for (int call = 1; call <= 3; call++) {
            assertThat(this.limiter.tryAcquire("login", "bob", limit).allowed()).isTrue();
        }
        Decision banning = this.limiter.tryAcquire("login", "bob", limit);
        assertThat(banning.outcome()).isEqualTo(Outcome.BANNED);
        assertThat(banning.banStarted()).isTrue();
        assertThat(banning.retryAfter()).isEqualTo(Duration.ofMinutes(15));
        assertThat(banning.remaining()).isZero();
        for (int call = 5; call <= 10; call++) {
            Decision banned = this.limiter.tryAcquire("login", "bob", limit);
            assertThat(banned.banned()).isTrue();
            assertThat(banned.banStarted()).isFalse();
            assertThat(banned.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(15));
        }
        assertThat(this.events).containsExactly(new RateLimitBanEvent("login", "bob", Duration.ofMinutes(15)));
        assertThat(FixedWindows.count(redis, this.prefix + "{login:bob}")).isEqualTo(3);
        assertThat(redis.getExpire(this.prefix + "{login:bob}:ban", TimeUnit.SECONDS)).isBetween(890L, 900L);
        assertThat(redis.getExpire(this.prefix + "{login:bob}", TimeUnit.MILLISECONDS)).as("until the minute ends")
            .isCloseTo(FixedWindows.left(redis.getRequiredConnectionFactory(), Duration.ofMinutes(1)).toMillis(),
                    within(1000L));
        assertThat(this.limiter.tryAcquire("login", "carol", limit).allowed()).isTrue();
    }

    @Test
    void withoutABanGoingPastMaxIsAnOrdinaryRejection() {
        Limit limit = Limit.of(1, Duration.ofMinutes(1));
        this.limiter.tryAcquire("plain", "k", limit);
        Decision rejected = this.limiter.tryAcquire("plain", "k", limit);
        assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(rejected.banStarted()).isFalse();
        assertThat(redis.hasKey(this.prefix + "{plain:k}:ban")).isFalse();
        assertThat(this.events).isEmpty();
    }

    @Test
    void aBanEndsOnItsOwn() {
        Limit limit = Limit.of(1, Duration.ofMillis(200)).withBanFor(Duration.ofMillis(60));
        // windows are periods of Redis's clock: the two calls start where one window has room for both
        FixedWindows.awaitRoom(redis, Duration.ofMillis(200), Duration.ofMillis(150));
        this.limiter.tryAcquire("short", "k", limit);
        assertThat(this.limiter.tryAcquire("short", "k", limit).banStarted()).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (this.limiter.isBanned("short", "k") && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(this.limiter.isBanned("short", "k")).isFalse();
        awaitNewWindow("short", "k", limit);
        assertThat(this.limiter.state("short", "k", limit).count()).isEqualTo(1);
    }

    @Test
    void exactlyOneAlertAndOneBanWhen64ThreadsHammerOneKey() throws Exception {
        Limit limit = Limit.of(500, Duration.ofMinutes(5)).withAlertAt(250).withBanFor(Duration.ofMinutes(5));
        AtomicInteger allowed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            List<Future<?>> futures = new java.util.ArrayList<>();
            for (int t = 0; t < 64; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        if (this.limiter.tryAcquire("crawl", "bot", limit).allowed()) {
                            allowed.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(allowed.get()).isEqualTo(500);
        assertThat(this.events).filteredOn(RateLimitAlertEvent.class::isInstance).hasSize(1);
        assertThat(this.events).filteredOn(RateLimitBanEvent.class::isInstance).hasSize(1);
    }

    @Test
    void stateShowsTheCountTheWindowAndTheBan() {
        assertThat(this.limiter.state("answers", "dora", this.answers)).isEqualTo(new LimitState(0, Duration.ZERO, Duration.ZERO));
        this.limiter.tryAcquire("answers", "dora", this.answers);
        this.limiter.tryAcquire("answers", "dora", this.answers);
        LimitState state = this.limiter.state("answers", "dora", this.answers);
        assertThat(state.count()).isEqualTo(2);
        assertThat(state.resetAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
        assertThat(state.banned()).isFalse();
        banDora();
        LimitState banned = this.limiter.state("answers", "dora", this.answers);
        assertThat(banned.banned()).isTrue();
        assertThat(banned.banTimeLeft()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(15));
        assertThat(banned.count()).isEqualTo(20);
    }

    @Test
    void unbanLiftsTheBanAndStartsAFreshWindow() {
        banDora();
        assertThat(this.limiter.isBanned("answers", "dora")).isTrue();
        assertThat(this.limiter.unban("answers", "dora")).isTrue();
        assertThat(this.limiter.isBanned("answers", "dora")).isFalse();
        Decision next = this.limiter.tryAcquire("answers", "dora", this.answers);
        assertThat(next.allowed()).isTrue();
        assertThat(next.count()).isEqualTo(1);
        assertThat(this.limiter.unban("answers", "dora")).as("not banned any more").isFalse();
    }

    @Test
    void resetForgetsTheCountAndTheBan() {
        banDora();
        this.limiter.reset("answers", "dora");
        assertThat(this.limiter.state("answers", "dora", this.answers)).isEqualTo(new LimitState(0, Duration.ZERO, Duration.ZERO));
        assertThat(redis.keys(this.prefix + "*")).isEmpty();
    }

    @Test
    void aFailingListenerDoesNotChangeTheDecision() {
        RedisRateLimiter failing = this.closing.add(
                RedisRateLimiter.builder(redis).keyPrefix(this.prefix).publishEvents(event -> {
            throw new IllegalStateException("listener down");
        }).build());
        Limit limit = Limit.of(2, Duration.ofMinutes(1)).withAlertAt(1).withBanFor(Duration.ofMinutes(1));
        failing.tryAcquire("fragile", "k", limit);
        assertThat(failing.tryAcquire("fragile", "k", limit).alertRaised()).isTrue();
        assertThat(failing.tryAcquire("fragile", "k", limit).banStarted()).isTrue();
    }

    @Test
    void aBanKeyWithoutExpiryGetsOne() {
        String banKey = this.prefix + "{legacy:k}:ban";
        redis.opsForValue().set(banKey, "1");
        Limit limit = Limit.of(2, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(2));
        assertThat(this.limiter.tryAcquire("legacy", "k", limit).banned()).isTrue();
        assertThat(redis.getExpire(banKey, TimeUnit.SECONDS)).isBetween(100L, 120L);
    }

    private void banDora() {
        for (int call = 0; call < 21; call++) {
            this.limiter.tryAcquire("answers", "dora", this.answers);
        }
    }

    private void awaitNewWindow(String limitId, String key, Limit limit) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (this.limiter.state(limitId, key, limit).count() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(this.limiter.tryAcquire(limitId, key, limit).count()).as("a fresh window").isEqualTo(1);
    }

}
