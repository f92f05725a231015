package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The wire format of the decision script, declared once: what {@code decide.lua}'s header comment
 * says about its keys, arguments and reply, as the Java side encodes and decodes them. A test reads
 * the header and checks every number here against it.
 */
final class DecisionScript {

    /** The script, assembled from the {@code .lua} files. */
    static final RedisScript<List<Long>> SCRIPT = LimiterScripts.decide();

    /**
     * The same decision for one enforced fixed-window limit, with or without tiers, in the acquire
     * mode, in a shorter layout ({@link #FAST_KEYS} key, {@link #FAST_ARGS} or
     * {@link #TIERED_FAST_ARGS} arguments) and the same reply: without the tables and the read
     * before the write that the shape never needs, and with the ban looked up once per window.
     */
    static final RedisScript<List<Long>> FIXED_WINDOW_FAST = LimiterScripts.fixedWindowFast();

    /** Several calls of the fast path's shape in one run, each as {@link #FIXED_WINDOW_FAST} decides it. */
    static final RedisScript<List<Long>> FIXED_WINDOW_FAST_BATCH = LimiterScripts.fixedWindowFastBatch();

    /**
     * Several calls decided in one run, each as {@link #SCRIPT} would decide it on its own: their
     * keys one after the other, their arguments one after the other, their replies one after the
     * other. A call that fails alone replies with the error's text in place of its outcome.
     */
    static final RedisScript<List<Long>> BATCH = LimiterScripts.batch();

    /** Keys per limit: state, ban, alert. */
    static final int KEYS_PER_LIMIT = 3;

    /**
     * Arguments per limit: algorithm, max, window, cost, alert-at, ban, shadow, and the ends of three
     * calendar periods ({@link CalendarPeriods}); for a token bucket with a burst, the burst and two
     * zeros (a calendar limit is a fixed window); zeros for any other limit.
     */
    static final int ARGS_PER_LIMIT = 10;

    /** Arguments before the first limit's: the mode and the number of limits. */
    static final int LEADING_ARGS = 2;

    /** Keys of a call in the fast path's layout: the state key alone. */
    static final int FAST_KEYS = 1;

    /** Arguments of a call in the fast path's layout without tiers: {@link #FAST}, max, window, cost. */
    static final int FAST_ARGS = 4;

    /** Arguments of a call in the fast path's layout with tiers: {@link #TIERED_FAST}, then alert-at and ban too. */
    static final int TIERED_FAST_ARGS = 6;

    /** The first argument of a fast-path call without alert or ban. */
    static final byte[] FAST = bytes("f");

    /** The first argument of a fast-path call with an alert or a ban. */
    static final byte[] TIERED_FAST = bytes("t");

    /**
     * Reply values of a call in the fast path's layout: the count, the reset, and the retry,
     * outcome and flags packed ({@link DecisionReply#numbers}).
     */
    static final int FAST_REPLY = 3;

    /** Reply values per limit in the acquire and check modes. */
    static final int REPLY_PER_LIMIT = 6;

    /** Reply values per limit in the peek mode: count, reset, ban left. */
    static final int PEEK_REPLY_PER_LIMIT = 3;

    /** Counts and may ban. */
    static final byte[] ACQUIRE = bytes("acquire");

    /** Decides as acquire would, writing nothing. */
    static final byte[] CHECK = bytes("check");

    /** Reads the state only. */
    static final byte[] PEEK = bytes("peek");

    /**
     * Settles calls allowed earlier: gives back, or charges, the difference between their actual
     * cost and the cost their decision took, in the window each was decided in.
     */
    static final byte[] SETTLE = bytes("settle");

    /**
     * Arguments per limit in the settle mode: algorithm, window, delta, the decision's reset, the
     * time since its reply, the channel, and the ends of three calendar periods.
     */
    static final int SETTLE_ARGS_PER_LIMIT = 9;

    /** Reply values per limit in the settle mode: whether a count changed, the window's count, its reset. */
    static final int SETTLE_REPLY_PER_LIMIT = 3;

    /** Outcome codes of the reply. */
    static final int ALLOWED = 0;

    static final int REJECTED = 1;

    static final int BANNED = 2;

    static final int ALLOWED_BUT_CALL_REJECTED = 3;

    private DecisionScript() {
    }

    /** The algorithm's code in the script's {@code ALGORITHMS} table. */
    static int code(Algorithm algorithm) {
        return switch (algorithm) {
            case FIXED_WINDOW -> 1;
            case SLIDING_LOG -> 2;
            case SLIDING_WINDOW -> 3;
            case TOKEN_BUCKET -> 4;
        };
    }

    /**
     * Whether calls under the algorithm can be settled exactly: its counts are kept per window of
     * Redis's clock, so a settlement finds the call's. A token bucket's tokens refill from the
     * moment they are taken, and a sliding log holds one entry per permit at its call's time:
     * neither knows, later, what of a call's is left to give back.
     */
    static boolean settles(Algorithm algorithm) {
        return algorithm == Algorithm.FIXED_WINDOW || algorithm == Algorithm.SLIDING_WINDOW;
    }

    /**
     * Whether a call of one limit can take the fixed-window fast path: not a calendar limit's,
     * whose periods only the general layout carries.
     */
    static boolean fast(byte[] mode, Limit limit) {
        return mode == ACQUIRE && limit.algorithm() == Algorithm.FIXED_WINDOW && limit.mode() == Limit.Mode.ENFORCE
                && limit.calendar() == null;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

}
