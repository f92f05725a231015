package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.github.limiter.Limit;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The keys and arguments of one run of the decision script, encoded straight to the bytes Redis
 * receives, in the layout {@link DecisionScript} declares: no {@code String} then {@code byte[]}
 * per argument, as the template's script executor would make. A {@link ScriptRunner} sends it.
 *
 * <p>A call that counts also says what to do with a reply that arrives after its caller stopped
 * waiting (see {@link #onLateReply}): the script ran, so its alerts and bans happened, and must be
 * reported all the same. A runner hands such a reply over with {@link #repliedLate}, and a failure
 * that ends such a call (no reply within the late window, a lost connection) with
 * {@link #unansweredLate}; a call whose caller got its answer never reaches either.
 */
final class DecisionCall {

    private static final byte[] BAN = bytes(RedisKeys.BAN);

    private static final byte[] SHADOW_BAN = bytes(RedisKeys.SHADOW_BAN);

    private static final byte[] ALERT = bytes(RedisKeys.ALERT);

    // small numbers (algorithms, flags, costs, counts of limits) are encoded once
    private static final byte[][] SMALL = new byte[1024][];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = bytes(Integer.toString(i));
        }
    }

    private final byte[][] keysAndArgs;

    private final int limits;

    private final int replySize;

    private final byte[] mode;

    // the call's limit, when it has one: its shape says which script runs
    private @Nullable Limit only;

    private boolean forcedGeneral;

    private int added;

    private @Nullable LateReply late;

    // set by the thread that sends it, read by the same
    private boolean sent;

    /**
     * Starts a call.
     * @param mode the script's mode: {@link DecisionScript#ACQUIRE}, {@code CHECK} or {@code PEEK}
     * @param limits how many limits the call carries
     */
    DecisionCall(byte[] mode, int limits) {
        this.limits = limits;
        this.mode = mode;
        this.replySize = limits * ((mode == DecisionScript.PEEK) ? DecisionScript.PEEK_REPLY_PER_LIMIT
                : DecisionScript.REPLY_PER_LIMIT);
        this.keysAndArgs = new byte[limits * (DecisionScript.KEYS_PER_LIMIT + DecisionScript.ARGS_PER_LIMIT)
                + DecisionScript.LEADING_ARGS][];
        int args = limits * DecisionScript.KEYS_PER_LIMIT;
        this.keysAndArgs[args] = mode;
        this.keysAndArgs[args + 1] = number(limits);
    }

    /** Adds a limit: its three keys, from its state key, and its seven arguments. */
    DecisionCall add(String stateKey, Limit limit, long cost) {
        boolean shadow = limit.mode() == Limit.Mode.SHADOW;
        byte[] state = bytes(stateKey);
        int key = this.added * DecisionScript.KEYS_PER_LIMIT;
        this.keysAndArgs[key] = state;
        this.keysAndArgs[key + 1] = concat(state, shadow ? SHADOW_BAN : BAN);
        this.keysAndArgs[key + 2] = concat(state, ALERT);
        int arg = this.limits * DecisionScript.KEYS_PER_LIMIT + DecisionScript.LEADING_ARGS
                + this.added * DecisionScript.ARGS_PER_LIMIT;
        Duration banFor = limit.banFor();
        this.keysAndArgs[arg] = number(DecisionScript.code(limit.algorithm()));
        this.keysAndArgs[arg + 1] = number(limit.max());
        this.keysAndArgs[arg + 2] = number(limit.window().toMillis());
        this.keysAndArgs[arg + 3] = number(cost);
        this.keysAndArgs[arg + 4] = number(limit.alertAt());
        this.keysAndArgs[arg + 5] = number((banFor != null) ? banFor.toMillis() : 0);
        this.keysAndArgs[arg + 6] = number(shadow ? 1 : 0);
        this.only = (this.limits == 1) ? limit : null;
        this.added++;
        return this;
    }

    /** Says what to do with a reply, or a failure, that comes after the caller stopped waiting. */
    DecisionCall onLateReply(LateReply late) {
        this.late = late;
        return this;
    }

    /** Marks the call as on its way to Redis: from now on, the script may run whatever happens here. */
    void sending() {
        this.sent = true;
    }

    /** Whether the call went on its way to Redis, by a runner that marks it ({@link #sending()}). */
    boolean sent() {
        return this.sent;
    }

    /** Hands over a reply that came after the caller stopped waiting: the script ran. */
    void repliedLate(List<Long> reply) {
        if (this.late != null) {
            this.late.replied(reply);
        }
    }

    /** Hands over the failure that ended a call after its caller stopped waiting: no reply will come. */
    void unansweredLate(Throwable failure) {
        if (this.late != null) {
            this.late.unanswered(failure);
        }
    }

    /** The keys, then the arguments, as Redis's EVALSHA takes them. */
    byte[][] keysAndArgs() {
        if (this.added != this.limits) {
            throw new IllegalStateException("Added " + this.added + " of " + this.limits + " limits");
        }
        return this.keysAndArgs;
    }

    /** Runs this call through the general script whatever its shape: to compare the two. */
    DecisionCall general() {
        this.forcedGeneral = true;
        return this;
    }

    /** The script to run: the fixed-window fast path when the call's one limit allows it. */
    RedisScript<List<Long>> script() {
        Limit limit = this.only;
        return (!this.forcedGeneral && limit != null && DecisionScript.fast(this.mode, limit))
                ? DecisionScript.FIXED_WINDOW_FAST : DecisionScript.SCRIPT;
    }

    /** How many of {@link #keysAndArgs()} are keys. */
    int numKeys() {
        return this.limits * DecisionScript.KEYS_PER_LIMIT;
    }

    /** How many integers the reply must hold. */
    int replySize() {
        return this.replySize;
    }

    /** What becomes of a call's reply, or failure, after its caller stopped waiting for it. */
    interface LateReply {

        /** The script ran after all: its reply, checked. */
        void replied(List<Long> reply);

        /** No reply will come; whether the script ran is unknown. */
        void unanswered(Throwable failure);

    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] joined = new byte[first.length + second.length];
        System.arraycopy(first, 0, joined, 0, first.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        return joined;
    }

    /** The decimal digits of a number, as Redis reads its arguments. */
    static byte[] number(long value) {
        if (value >= 0 && value < SMALL.length) {
            return SMALL[(int) value];
        }
        if (value < 0) {
            return bytes(Long.toString(value));
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        byte[] out = new byte[digits];
        long rest = value;
        for (int i = digits - 1; i >= 0; i--) {
            out[i] = (byte) ('0' + (rest % 10));
            rest /= 10;
        }
        return out;
    }

}
