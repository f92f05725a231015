package io.github.limiter.interceptor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decisions an instance makes in its own memory while Redis cannot decide
 * ({@code OnFailure.LOCAL}), on a clock of the test's: each algorithm, the tiers, a call under
 * several limits, shadow mode, the cap on keys, and dropping it all once Redis decides again.
 */
class LocalLimitsTests {

    private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));

    private final LocalLimits local = new LocalLimits(100, this.clock);

    @Test
    void fixedWindowCountsUpToMaxThenRefusesUntilItsWindowEnds() {
        Limit limit = Limit.of(3, Duration.ofSeconds(10));
        this.clock.advance(4_000);
        for (int i = 1; i <= 3; i++) {
            Decision decision = one("answers", "alice", limit);
            assertThat(decision.outcome()).isEqualTo(Outcome.ALLOWED);
            assertThat(decision.count()).isEqualTo(i);
            assertThat(decision.local()).isTrue();
            assertThat(decision.resetAfter()).isEqualTo(Duration.ofSeconds(6));
        }
        Decision refused = one("answers", "alice", limit);
        assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.local()).isTrue();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(6));
        // another key counts on its own
        assertThat(one("answers", "bob", limit).count()).isEqualTo(1);
        this.clock.advance(6_000);
        assertThat(one("answers", "alice", limit).count()).isEqualTo(1);
    }

    @Test
    void aCalendarLimitCountsInItsPeriod() {
        Limit daily = Limit.of(1, CalendarWindow.DAY, ZoneId.of("UTC"));
        this.clock.advance(Duration.ofHours(23).toMillis());
        assertThat(one("daily", "alice", daily).resetAfter()).isEqualTo(Duration.ofHours(1));
        assertThat(one("daily", "alice", daily).retryAfter()).isEqualTo(Duration.ofHours(1));
        this.clock.advance(Duration.ofHours(1).toMillis());
        assertThat(one("daily", "alice", daily).allowed()).isTrue();
    }

    @Test
    void theFirstCallPastAlertAtRaisesTheAlertAndGoingPastMaxBans() {
        Limit limit = Limit.of(3, Duration.ofSeconds(10)).withAlertAt(2).withBanFor(Duration.ofSeconds(30));
        assertThat(one("logins", "mallory", limit).alertRaised()).isFalse();
        assertThat(one("logins", "mallory", limit).alertRaised()).isFalse();
        assertThat(one("logins", "mallory", limit).alertRaised()).isTrue();
        Decision banning = one("logins", "mallory", limit);
        assertThat(banning.outcome()).isEqualTo(Outcome.BANNED);
        assertThat(banning.banStarted()).isTrue();
        assertThat(banning.retryAfter()).isEqualTo(Duration.ofSeconds(30));
        this.clock.advance(10_000);
        // a new window, but the ban holds, and starts no other
        Decision banned = one("logins", "mallory", limit);
        assertThat(banned.outcome()).isEqualTo(Outcome.BANNED);
        assertThat(banned.banStarted()).isFalse();
        assertThat(banned.retryAfter()).isEqualTo(Duration.ofSeconds(20));
        this.clock.advance(20_000);
        assertThat(one("logins", "mallory", limit).outcome()).isEqualTo(Outcome.ALLOWED);
    }

    @Test
    void tokenBucketTakesItsBurstThenRefillsAtMaxPerWindow() {
        Limit limit = new Limit(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1), 0, null, Limit.Mode.ENFORCE)
            .withBurst(4);
        for (int i = 1; i <= 4; i++) {
            Decision decision = one("api", "alice", limit);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.remaining()).isEqualTo(4 - i);
        }
        Decision refused = one("api", "alice", limit);
        assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(500));
        this.clock.advance(500);
        assertThat(one("api", "alice", limit).allowed()).isTrue();
        assertThat(one("api", "alice", limit).allowed()).isFalse();
    }

    @Test
    void slidingWindowWeighsThePreviousWindowAndSlidingLogCountsItWhole() {
        Limit sliding = new Limit(Algorithm.SLIDING_WINDOW, 2, Duration.ofSeconds(1), 0, null, Limit.Mode.ENFORCE);
        Limit log = sliding.withAlgorithm(Algorithm.SLIDING_LOG);
        this.clock.advance(900);
        for (Limit limit : List.of(sliding, log)) {
            assertThat(one(limit.algorithm().name(), "alice", limit).allowed()).isTrue();
            assertThat(one(limit.algorithm().name(), "alice", limit).allowed()).isTrue();
            assertThat(one(limit.algorithm().name(), "alice", limit).allowed()).isFalse();
        }
        // halfway through the next window, half of the previous one's count still weighs
        this.clock.advance(600);
        assertThat(one("SLIDING_WINDOW", "alice", sliding).allowed()).isTrue();
        assertThat(one("SLIDING_WINDOW", "alice", sliding).allowed()).isFalse();
        // the log never passes more than max in any window: not before the previous window has left
        Decision refused = one("SLIDING_LOG", "alice", log);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(500));
        this.clock.advance(500);
        assertThat(one("SLIDING_LOG", "alice", log).allowed()).isTrue();
    }

    @Test
    void aCallUnderSeveralLimitsPassesAllOrIsCountedByNone() {
        LimitRequest minute = LimitRequest.of("minute", "alice", Limit.of(5, Duration.ofMinutes(1)));
        LimitRequest second = LimitRequest.of("second", "alice", Limit.of(1, Duration.ofSeconds(1)));
        List<Decision> first = this.local.decide(List.of(minute, second));
        assertThat(first).allMatch(Decision::allowed).allMatch(Decision::local);
        List<Decision> refused = this.local.decide(List.of(minute, second));
        assertThat(refused.get(0).outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(refused.get(0).retryAfter()).isZero();
        assertThat(refused.get(1).outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(Decision.binding(refused)).isEqualTo(refused.get(1));
        // the refused call took nothing from the minute
        assertThat(this.local.decide(List.of(minute)).get(0).count()).isEqualTo(2);
    }

    @Test
    void aShadowLimitNeverRefuses() {
        LimitRequest enforced = LimitRequest.of("enforced", "alice", Limit.of(5, Duration.ofMinutes(1)));
        LimitRequest shadow = LimitRequest.of("trial", "alice",
                Limit.of(1, Duration.ofMinutes(1)).withMode(Limit.Mode.SHADOW));
        this.local.decide(List.of(enforced, shadow));
        List<Decision> second = this.local.decide(List.of(enforced, shadow));
        assertThat(second.get(1).outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(second.get(1).shadow()).isTrue();
        assertThat(second.get(1).allowed()).isTrue();
        assertThat(second.get(0).count()).isEqualTo(2);
        assertThat(Decision.binding(second).allowed()).isTrue();
    }

    @Test
    void anInstanceAllowsItsShareOfMaxAndOfTheAlertThreshold() {
        Limit limit = Limit.of(20, Duration.ofMinutes(1)).withAlertAt(10);
        LimitRequest request = LocalLimits.shared(LimitRequest.of("answers", "alice", limit), 0.25);
        assertThat(request.limit().max()).isEqualTo(5);
        assertThat(request.limit().alertAt()).isEqualTo(2);
        List<Decision> decisions = new java.util.ArrayList<>();
        for (int call = 0; call < 6; call++) {
            decisions.addAll(this.local.decide(List.of(request)));
        }
        assertThat(decisions).extracting(Decision::allowed).containsExactly(true, true, true, true, true, false);
        assertThat(decisions).filteredOn(Decision::alertRaised).singleElement()
            .satisfies((third) -> assertThat(third.count()).isEqualTo(3));
        // a share leaves at least one call, and the whole of a call's cost
        Limit small = Limit.of(3, Duration.ofMinutes(1));
        assertThat(LocalLimits.shared(LimitRequest.of("answers", "bob", small), 0.1).limit().max()).isEqualTo(1);
        assertThat(LocalLimits.shared(new LimitRequest("answers", "bob", small, 2), 0.1).limit().max()).isEqualTo(2);
        Limit bucket = Limit.of(10, Duration.ofSeconds(1)).withAlgorithm(Algorithm.TOKEN_BUCKET).withBurst(100);
        assertThat(LocalLimits.shared(LimitRequest.of("partner", "p", bucket), 0.5).limit())
            .satisfies((half) -> assertThat(half.max()).isEqualTo(5))
            .satisfies((half) -> assertThat(half.burst()).isEqualTo(50));
    }

    @Test
    void atTheCapTheKeyUsedLeastRecentlyIsForgotten() {
        LocalLimits small = new LocalLimits(2, this.clock);
        Limit limit = Limit.of(5, Duration.ofMinutes(1));
        small.decide(List.of(LimitRequest.of("answers", "a", limit)));
        small.decide(List.of(LimitRequest.of("answers", "b", limit)));
        small.decide(List.of(LimitRequest.of("answers", "a", limit)));
        small.decide(List.of(LimitRequest.of("answers", "c", limit)));
        assertThat(small.size()).isEqualTo(2);
        // b went, a stayed
        assertThat(small.decide(List.of(LimitRequest.of("answers", "a", limit))).get(0).count()).isEqualTo(3);
        assertThat(small.decide(List.of(LimitRequest.of("answers", "b", limit))).get(0).count()).isEqualTo(1);
    }

    @Test
    void expiredKeysAreDropped() {
        Limit limit = Limit.of(5, Duration.ofSeconds(1));
        one("answers", "a", limit);
        one("answers", "b", limit);
        this.clock.advance(1_000);
        one("answers", "c", limit);
        assertThat(this.local.size()).isEqualTo(1);
    }

    @Test
    void anAllowedDecisionOfRedisDropsTheLocalCounts() {
        Limit limit = Limit.of(5, Duration.ofMinutes(1));
        one("answers", "alice", limit);
        one("answers", "alice", limit);
        // a refusal may come from the limiter's memory of Redis's: it proves nothing
        this.local.redisDecided(Decision.reject("answers", "bob", 5, 5, Duration.ofSeconds(1), Duration.ofSeconds(1)));
        assertThat(this.local.size()).isEqualTo(1);
        Decision redis = Decision.allow("answers", "alice", 5, 1, Duration.ofMinutes(1));
        assertThat(this.local.redisDecided(redis)).isSameAs(redis);
        assertThat(this.local.size()).isZero();
        assertThat(one("answers", "alice", limit).count()).isEqualTo(1);
    }

    private Decision one(String limitId, String key, Limit limit) {
        return this.local.decide(List.of(LimitRequest.of(limitId, key, limit))).get(0);
    }

    /** A clock the test moves. */
    private static final class MutableClock extends Clock {

        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(long millis) {
            this.now = this.now.plusMillis(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return this.now;
        }

    }

}
