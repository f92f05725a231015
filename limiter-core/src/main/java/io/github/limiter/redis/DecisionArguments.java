package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.limiter.Limit;
import io.github.limiter.internal.transport.ScriptCall;
import io.github.limiter.internal.transport.ScriptRunner;
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
final class DecisionArguments implements ScriptCall {

    private static final byte[] BAN = bytes(RedisLayout.BAN);

    private static final byte[] SHADOW_BAN = bytes(RedisLayout.SHADOW_BAN);

    private static final byte[] ALERT = bytes(RedisLayout.ALERT);

    // small numbers (algorithms, flags, costs, counts of limits) are encoded once
    private static final byte[][] SMALL = new byte[1024][];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = bytes(Integer.toString(i));
        }
    }

    // allocated by the first add: a call of one limit may take the fast path's shorter layout
    private byte @Nullable [][] keysAndArgs;

    private final int limits;

    private int replySize;

    private final byte[] mode;

    private int numKeys;

    private boolean fast;

    private boolean forcedGeneral;

    private int added;

    private @Nullable LateReply late;

    // set by the thread that sends it, read by the same
    private boolean sent;

    /**
     * Starts a call.
     * @param mode the script's mode: {@link DecisionScript#ACQUIRE}, {@code CHECK}, {@code PEEK} or
     * {@code SETTLE}
     * @param limits how many limits the call carries
     */
    DecisionArguments(byte[] mode, int limits) {
        this.limits = limits;
        this.mode = mode;
        this.replySize = limits * ((mode == DecisionScript.PEEK) ? DecisionScript.PEEK_REPLY_PER_LIMIT
                : (mode == DecisionScript.SETTLE) ? DecisionScript.SETTLE_REPLY_PER_LIMIT
                : DecisionScript.REPLY_PER_LIMIT);
    }

    /**
     * Adds a limit: in the general layout its three keys, from its state key, and its ten
     * arguments; a call of one limit whose shape the fast path decides, in that path's layout.
     */
    DecisionArguments add(String stateKey, Limit limit, long cost) {
        if (this.added == 0 && this.limits == 1 && !this.forcedGeneral && DecisionScript.fast(this.mode, limit)) {
            addFast(bytes(stateKey), limit, cost);
            this.added++;
            return this;
        }
        return addGeneral(stateKey, limit, cost, limit.alertAt(), banMillis(limit),
                number((limit.mode() == Limit.Mode.SHADOW) ? 1 : 0));
    }

    /**
     * Adds a limit to settle, in the settle mode's own layout ({@link DecisionScript#SETTLE_ARGS_PER_LIMIT}
     * values): its algorithm, window, the difference, the decision's reset, the time since its
     * reply, the channel a give-back is announced on, and the calendar's period ends.
     * @param delta the actual cost less the cost the decision took: negative to give back
     * @param decidedReset the reset the call's decision replied, in ms
     * @param sinceMillis the ms from the decision's reply to now
     * @param channel where a give-back is announced to the instances that remember refusals, or
     * the empty string for nowhere
     */
    DecisionArguments addSettlement(String stateKey, Limit limit, long delta, long decidedReset, long sinceMillis,
            String channel) {
        if (this.mode != DecisionScript.SETTLE) {
            throw new IllegalStateException("A settlement is added to a call in the settle mode");
        }
        byte[][] out = start(DecisionScript.SETTLE_ARGS_PER_LIMIT);
        int arg = keys(out, stateKey, limit) + this.added * DecisionScript.SETTLE_ARGS_PER_LIMIT;
        out[arg] = number(DecisionScript.code(limit.algorithm()));
        out[arg + 1] = number(limit.window().toMillis());
        out[arg + 2] = number(delta);
        out[arg + 3] = number(decidedReset);
        out[arg + 4] = number(sinceMillis);
        out[arg + 5] = bytes(channel);
        periodEnds(out, arg + 6, limit);
        this.added++;
        return this;
    }

    private DecisionArguments addGeneral(String stateKey, Limit limit, long cost, long alertAt, long banMillis,
            byte[] shadow) {
        byte[][] out = start(DecisionScript.ARGS_PER_LIMIT);
        int arg = keys(out, stateKey, limit) + this.added * DecisionScript.ARGS_PER_LIMIT;
        out[arg] = number(DecisionScript.code(limit.algorithm()));
        out[arg + 1] = number(limit.max());
        out[arg + 2] = number(limit.window().toMillis());
        out[arg + 3] = number(cost);
        out[arg + 4] = number(alertAt);
        out[arg + 5] = number(banMillis);
        out[arg + 6] = shadow;
        periodEnds(out, arg + 7, limit);
        this.added++;
        return this;
    }

    /** The keys and arguments of the general layout, with the mode and the count of limits set. */
    private byte[][] start(int argsPerLimit) {
        if (this.keysAndArgs == null) {
            this.keysAndArgs = new byte[this.limits * (DecisionScript.KEYS_PER_LIMIT + argsPerLimit)
                    + DecisionScript.LEADING_ARGS][];
            this.numKeys = this.limits * DecisionScript.KEYS_PER_LIMIT;
            this.keysAndArgs[this.numKeys] = this.mode;
            this.keysAndArgs[this.numKeys + 1] = number(this.limits);
        }
        return this.keysAndArgs;
    }

    /** Sets the limit's three keys, from its state key; returns where the limits' arguments start. */
    private int keys(byte[][] out, String stateKey, Limit limit) {
        byte[] state = bytes(stateKey);
        int key = this.added * DecisionScript.KEYS_PER_LIMIT;
        out[key] = state;
        out[key + 1] = concat(state, (limit.mode() == Limit.Mode.SHADOW) ? SHADOW_BAN : BAN);
        out[key + 2] = concat(state, ALERT);
        return this.numKeys + DecisionScript.LEADING_ARGS;
    }

    /**
     * The ends of the calendar's three periods around now; for a token bucket with a burst, the
     * burst and two zeros; else three zeros, as for every limit before bursts were.
     */
    private static void periodEnds(byte[][] out, int at, Limit limit) {
        if (limit.burst() > 0) {
            out[at] = number(limit.burst());
            out[at + 1] = SMALL[0];
            out[at + 2] = SMALL[0];
        }
        else if (limit.calendar() != null) {
            long[] ends = CalendarPeriods.ends(limit, Instant.now());
            out[at] = number(ends[0]);
            out[at + 1] = number(ends[1]);
            out[at + 2] = number(ends[2]);
        }
        else {
            out[at] = SMALL[0];
            out[at + 1] = SMALL[0];
            out[at + 2] = SMALL[0];
        }
    }

    /** The fast path's layout: the state key; the shape, max, window, cost, and the tiers if any. */
    private void addFast(byte[] state, Limit limit, long cost) {
        long banMillis = banMillis(limit);
        boolean tiers = limit.alertAt() > 0 || banMillis > 0;
        byte[][] out = new byte[DecisionScript.FAST_KEYS
                + (tiers ? DecisionScript.TIERED_FAST_ARGS : DecisionScript.FAST_ARGS)][];
        out[0] = state;
        out[1] = tiers ? DecisionScript.TIERED_FAST : DecisionScript.FAST;
        out[2] = number(limit.max());
        out[3] = number(limit.window().toMillis());
        out[4] = number(cost);
        if (tiers) {
            out[5] = number(limit.alertAt());
            out[6] = number(banMillis);
        }
        this.keysAndArgs = out;
        this.numKeys = DecisionScript.FAST_KEYS;
        this.replySize = DecisionScript.FAST_REPLY;
        this.fast = true;
    }

    private static long banMillis(Limit limit) {
        Duration banFor = limit.banFor();
        return (banFor != null) ? banFor.toMillis() : 0;
    }

    /** Says what to do with a reply, or a failure, that comes after the caller stopped waiting. */
    DecisionArguments onLateReply(LateReply late) {
        this.late = late;
        return this;
    }

    /** Marks the call as on its way to Redis: from now on, the script may run whatever happens here. */
    @Override
    public void sending() {
        this.sent = true;
    }

    /** Whether the call went on its way to Redis, by a runner that marks it ({@link #sending()}). */
    @Override
    public boolean sent() {
        return this.sent;
    }

    /** Hands over a reply that came after the caller stopped waiting: the script ran. */
    @Override
    public void repliedLate(List<Long> reply) {
        if (this.late != null) {
            this.late.replied(reply);
        }
    }

    /** Hands over the failure that ended a call after its caller stopped waiting: no reply will come. */
    @Override
    public void unansweredLate(Throwable failure) {
        if (this.late != null) {
            this.late.unanswered(failure);
        }
    }

    /** The keys, then the arguments, as Redis's EVALSHA takes them. */
    @Override
    public byte[][] keysAndArgs() {
        byte[][] keysAndArgs = this.keysAndArgs;
        if (this.added != this.limits || keysAndArgs == null) {
            throw new IllegalStateException("Added " + this.added + " of " + this.limits + " limits");
        }
        return keysAndArgs;
    }

    /**
     * Runs this call through the general script whatever its shape: to compare the two. Called
     * before the first {@link #add}.
     */
    DecisionArguments general() {
        if (this.added > 0) {
            throw new IllegalStateException("general() comes before the first limit is added");
        }
        this.forcedGeneral = true;
        return this;
    }

    /** The script to run: the fixed-window fast path when the call's one limit allows it. */
    @Override
    public RedisScript<List<Long>> script() {
        return this.fast ? DecisionScript.FIXED_WINDOW_FAST : DecisionScript.SCRIPT;
    }

    /** How many of {@link #keysAndArgs()} are keys. */
    @Override
    public int numKeys() {
        return this.numKeys;
    }

    /** How many integers the reply must hold, as the script gives it. */
    @Override
    public int replySize() {
        return this.replySize;
    }

    /** Whether the call takes the fast path's layout, alone or in a run of such calls. */
    boolean fast() {
        return this.fast;
    }

    /** The reply as {@link DecisionScript#SCRIPT} gives it, checked: the fast path's three values unpacked. */
    @Override
    public List<Long> read(@Nullable List<?> reply) {
        return DecisionReply.numbers(reply, this.replySize, this.fast);
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
