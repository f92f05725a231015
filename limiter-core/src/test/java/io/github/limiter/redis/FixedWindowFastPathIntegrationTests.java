package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The fixed-window fast path decides exactly as the general script does for its shape: the same
 * outcomes, counts and tiers, call after call, from fresh keys, keys left without an expiry, and
 * bans in force; and it is taken for that shape only.
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
            assertThat(redis.opsForValue().get(fast)).isEqualTo("5");
            assertThat(redis.getExpire(fast + RedisKeys.ALERT)).isPositive();
            assertThat(redis.getExpire(fast + RedisKeys.BAN)).isGreaterThan(60);
            return null;
        });
    }

    @Test
    void refusesWithoutCountingPastMax() {
        compare((fast, general) -> {
            for (int i = 0; i < 7; i++) {
                assertSame(decide(fast, 1, false), decide(general, 1, true));
            }
            assertThat(redis.opsForValue().get(fast)).isEqualTo("5");
            assertThat(redis.getExpire(fast)).isPositive();
            return null;
        });
    }

    @Test
    void decidesAsTheGeneralScriptForAKeyLeftWithoutExpiry() {
        compare((fast, general) -> {
            redis.opsForValue().set(fast, "3");
            redis.opsForValue().set(general, "3");
            assertSame(decide(fast, 1, false), decide(general, 1, true));
            assertThat(redis.getExpire(fast)).isPositive();
            assertThat(redis.getExpire(general)).isPositive();
            assertSame(decide(fast, 2, false), decide(general, 2, true));
            return null;
        });
    }

    @Test
    void aBanInForceStillBindsAsInTheGeneralScript() {
        compare((fast, general) -> {
            redis.opsForValue().set(fast + RedisKeys.BAN, "9", Duration.ofMinutes(5));
            redis.opsForValue().set(general + RedisKeys.BAN, "9", Duration.ofMinutes(5));
            List<Long> fastReply = decide(fast, 1, false);
            assertSame(fastReply, decide(general, 1, true));
            assertThat(fastReply.get(0)).isEqualTo(DecisionScript.BANNED);
            assertThat(fastReply.get(3)).isGreaterThan(Duration.ofMinutes(4).toMillis());
            // a ban key left without expiry gets the window, in both
            redis.persist(fast + RedisKeys.BAN);
            redis.persist(general + RedisKeys.BAN);
            assertSame(decide(fast, 1, false), decide(general, 1, true));
            assertThat(redis.getExpire(fast + RedisKeys.BAN)).isPositive().isLessThanOrEqualTo(60);
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
        assertThat(new DecisionCall(DecisionScript.CHECK, 1).add("k", this.fivePerMinute, 1).script())
            .isSameAs(DecisionScript.SCRIPT);
    }

    private DecisionCall call(Limit limit, int limits) {
        DecisionCall call = new DecisionCall(DecisionScript.ACQUIRE, limits);
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
        DecisionCall call = new DecisionCall(DecisionScript.ACQUIRE, 1);
        if (general) {
            call.general();
        }
        call.add(stateKey, limit, cost);
        assertThat(call.script()).isSameAs(general ? DecisionScript.SCRIPT : DecisionScript.FIXED_WINDOW_FAST);
        return this.runner.runHere(call);
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
