package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.internal.transport.BlockingScriptRunner;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The fixed-window fast path decides exactly as the general script does for its shape: the same
 * outcomes, counts and tiers, call after call, from fresh keys, keys left without an expiry, counts
 * kept under another window length, and bans in force; it looks a ban up once per window and in
 * windows a ban marked; and it is taken for that shape only.
 */
@WithRedis
class FixedWindowFastPathIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private final BlockingScriptRunner runner = new BlockingScriptRunner(redis);

    private final String prefix = "fast-" + UUID.randomUUID() + ":";

    private final Limit fivePerMinute = Limit.of(5, Duration.ofMinutes(1));

    @Test
    void decidesAsTheGeneralScriptCallAfterCall() {
        long[] costs = { 1, 1, 0, 2, 1, 5, 1, 0, 3 };
        compare((fast, general) -> {
            for (long cost : costs) {
                assertSame(decide(fast, cost, false), decide(general, cost, true));
            }
            return null;
        });
    }

    @Test
    void raisesTheAlertOnceAndStartsTheBanAsTheGeneralScript() {
        Limit tiered = this.fivePerMinute.withAlertAt(2).withBanFor(Duration.ofMinutes(2));
        long[] costs = { 1, 1, 1, 0, 2, 1, 1, 0 };
        compare((fast, general) -> {
            List<List<Long>> replies = new java.util.ArrayList<>();
            for (long cost : costs) {
                List<Long> reply = decide(fast, tiered, cost, false);
                assertSame(reply, decide(general, tiered, cost, true));
                replies.add(reply);
            }
            // the third call crosses alert-at 2; the sixth (count 6 > 5) starts the ban
            assertThat(replies.stream().map(reply -> reply.get(4)).toList()).containsExactly(0L, 0L, 1L, 0L, 0L, 0L,
                    0L, 0L);
            assertThat(replies.stream().map(reply -> reply.get(5)).toList()).containsExactly(0L, 0L, 0L, 0L, 0L, 1L,
                    0L, 0L);
            assertThat(replies.get(5).get(0)).isEqualTo(DecisionScript.BANNED);
            assertThat(replies.get(5).get(1)).as("the refused call is not counted").isEqualTo(5L);
            assertThat(FixedWindows.count(redis, fast)).isEqualTo(5);
            assertThat(redis.getExpire(fast + RedisLayout.ALERT)).isPositive();
            assertThat(redis.getExpire(fast + RedisLayout.BAN)).isGreaterThan(60);
            return null;
        });
    }

    @Test
    void refusesWithoutCountingPastMax() {
        compare((fast, general) -> {
            for (int i = 0; i < 7; i++) {
                assertSame(decide(fast, 1, false), decide(general, 1, true));
            }
            assertThat(FixedWindows.count(redis, fast)).isEqualTo(5);
            assertThat(redis.getExpire(fast)).isPositive();
            return null;
        });
    }

    @Test
    void dropsTheCountOfAWindowThatEndedAndGivesTheKeyItsExpiry() {
        compare((fast, general) -> {
            // a window long ended, its key left without expiry (as if written by something else)
            redis.opsForHash().put(fast, "1000", "3");
            redis.opsForHash().put(general, "1000", "3");
            List<Long> reply = decide(fast, 1, false);
            assertSame(reply, decide(general, 1, true));
            assertThat(reply.get(1)).as("counted afresh").isEqualTo(1L);
            assertThat(redis.opsForHash().keys(fast)).doesNotContain("1000").hasSize(1);
            assertThat(redis.opsForHash().keys(general)).doesNotContain("1000").hasSize(1);
            assertThat(redis.getExpire(fast)).isPositive();
            assertThat(redis.getExpire(general)).isPositive();
            assertSame(decide(fast, 2, false), decide(general, 2, true));
            return null;
        });
    }

    @Test
    void carriesOverTheCountOfAWindowOfAnotherLengthStillRunning() {
        compare((fast, general) -> {
            // counted under a window of another length, which ends after this test (the limit's
            // window changed while the application runs)
            String running = Long.toString(redisMillis() + Duration.ofHours(1).toMillis());
            redis.opsForHash().put(fast, running, "3");
            redis.opsForHash().put(general, running, "3");
            redis.expire(fast, Duration.ofHours(1));
            redis.expire(general, Duration.ofHours(1));
            List<Long> reply = decide(fast, 1, false);
            assertSame(reply, decide(general, 1, true));
            assertThat(reply.get(1)).as("counting on from 3").isEqualTo(4L);
            assertThat(redis.opsForHash().keys(fast)).doesNotContain(running).hasSize(1);
            assertThat(redis.opsForHash().keys(general)).doesNotContain(running).hasSize(1);
            assertThat(redis.getExpire(fast)).as("the key ends with its window now").isPositive()
                .isLessThanOrEqualTo(60);
            assertThat(redis.getExpire(general)).isPositive().isLessThanOrEqualTo(60);
            assertSame(decide(fast, 1, false), decide(general, 1, true));
            return null;
        });
    }

    @Test
    void anAlertMarkerLeftByTheWindowBeforeDoesNotStandForThisOnes() {
        Limit alerting = this.fivePerMinute.withAlertAt(1);
        compare((fast, general) -> {
            // a marker's expiry may trail its window's end by a millisecond: still there, of another window
            redis.opsForValue().set(fast + RedisLayout.ALERT, "1000", Duration.ofMinutes(1));
            redis.opsForValue().set(general + RedisLayout.ALERT, "1000", Duration.ofMinutes(1));
            assertSame(decide(fast, alerting, 1, false), decide(general, alerting, 1, true));
            List<Long> fastReply = decide(fast, alerting, 1, false);
            assertSame(fastReply, decide(general, alerting, 1, true));
            assertThat(fastReply.get(4)).as("the alert fires").isEqualTo(1L);
            assertThat(decide(fast, alerting, 1, false).get(4)).as("once per window").isZero();
            assertThat(decide(general, alerting, 1, true).get(4)).isZero();
            return null;
        });
    }

    @Test
    void looksTheBanUpOnlyInTheWindowsFirstCallAndInAWindowItMarked() {
        String key = this.prefix + "{looks:k}";
        Limit banning = this.fivePerMinute.withBanFor(Duration.ofMinutes(2));
        // a ban of the key, started by no call of this window: the window's first call finds it
        redis.opsForValue().set(key + RedisLayout.BAN, "9", Duration.ofMinutes(5));
        assertThat(decide(key, banning, 1, false).get(0)).isEqualTo(DecisionScript.BANNED);
        assertThat(decide(key, this.fivePerMinute, 1, false).get(0))
            .as("the window is marked: a limit without ban-for finds the ban too").isEqualTo(DecisionScript.BANNED);
        // lifted by another means than unban (which deletes the count too): the window counts on
        redis.delete(key + RedisLayout.BAN);
        List<Long> after = decide(key, this.fivePerMinute, 1, false);
        assertThat(after.subList(0, 2)).containsExactly((long) DecisionScript.ALLOWED, 1L);
        assertThat(FixedWindows.count(redis, key)).isEqualTo(1);
        // unmarked now: a ban written behind the script's back is not looked up until the next window
        redis.opsForValue().set(key + RedisLayout.BAN, "9", Duration.ofMinutes(5));
        assertThat(decide(key, this.fivePerMinute, 1, false).get(0)).isEqualTo(DecisionScript.ALLOWED);
    }

    @Test
    void aBanInForceStillBindsAsInTheGeneralScript() {
        compare((fast, general) -> {
            redis.opsForValue().set(fast + RedisLayout.BAN, "9", Duration.ofMinutes(5));
            redis.opsForValue().set(general + RedisLayout.BAN, "9", Duration.ofMinutes(5));
            List<Long> fastReply = decide(fast, 1, false);
            assertSame(fastReply, decide(general, 1, true));
            assertThat(fastReply.get(0)).isEqualTo(DecisionScript.BANNED);
            assertThat(fastReply.get(3)).isGreaterThan(Duration.ofMinutes(4).toMillis());
            // a ban key left without expiry gets the window, in both
            redis.persist(fast + RedisLayout.BAN);
            redis.persist(general + RedisLayout.BAN);
            assertSame(decide(fast, 1, false), decide(general, 1, true));
            assertThat(redis.getExpire(fast + RedisLayout.BAN)).isPositive().isLessThanOrEqualTo(60);
            return null;
        });
    }

    @Test
    void isTakenForOneEnforcedFixedWindowLimitOnly() {
        assertThat(call(this.fivePerMinute, 1).script()).isSameAs(DecisionScript.FIXED_WINDOW_FAST);
        assertThat(call(this.fivePerMinute.withAlertAt(2), 1).script()).isSameAs(DecisionScript.FIXED_WINDOW_FAST);
        assertThat(call(this.fivePerMinute.withBanFor(Duration.ofMinutes(1)), 1).script())
            .isSameAs(DecisionScript.FIXED_WINDOW_FAST);
        assertThat(call(this.fivePerMinute.withMode(Limit.Mode.SHADOW), 1).script()).isSameAs(DecisionScript.SCRIPT);
        assertThat(call(this.fivePerMinute.withAlgorithm(Algorithm.TOKEN_BUCKET), 1).script())
            .isSameAs(DecisionScript.SCRIPT);
        assertThat(call(this.fivePerMinute, 2).script()).isSameAs(DecisionScript.SCRIPT);
        assertThat(new DecisionArguments(DecisionScript.CHECK, 1).add("k", this.fivePerMinute, 1).script())
            .isSameAs(DecisionScript.SCRIPT);
    }

    private DecisionArguments call(Limit limit, int limits) {
        DecisionArguments call = new DecisionArguments(DecisionScript.ACQUIRE, limits);
        for (int i = 0; i < limits; i++) {
            call.add(this.prefix + "{shape:" + i + "}", limit, 1);
        }
        return call;
    }

    private void compare(BiFunction<String, String, Void> scenario) {
        scenario.apply(this.prefix + "{fast:k}", this.prefix + "{general:k}");
    }

    private List<Long> decide(String stateKey, long cost, boolean general) {
        return decide(stateKey, this.fivePerMinute, cost, general);
    }

    private List<Long> decide(String stateKey, Limit limit, long cost, boolean general) {
        DecisionArguments call = new DecisionArguments(DecisionScript.ACQUIRE, 1);
        if (general) {
            call.general();
        }
        call.add(stateKey, limit, cost);
        assertThat(call.script()).isSameAs(general ? DecisionScript.SCRIPT : DecisionScript.FIXED_WINDOW_FAST);
        return this.runner.runHere(call);
    }

    private static long redisMillis() {
        return redis.execute((RedisCallback<Long>) connection -> connection
            .serverCommands()
            .time(TimeUnit.MILLISECONDS));
    }

    /** Same outcome, count and flags; times within what passes between the two calls. */
    private static void assertSame(List<Long> fast, List<Long> general) {
        assertThat(fast.get(0)).as("outcome").isEqualTo(general.get(0));
        assertThat(fast.get(1)).as("count").isEqualTo(general.get(1));
        assertThat(fast.get(2)).as("reset").isCloseTo(general.get(2), within(50L));
        assertThat(fast.get(3)).as("retry").isCloseTo(general.get(3), within(50L));
        assertThat(fast.subList(4, 6)).as("alert, ban started").isEqualTo(general.subList(4, 6));
    }

}
