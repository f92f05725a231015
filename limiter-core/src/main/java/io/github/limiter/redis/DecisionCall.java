package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.limiter.Limit;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * One run of the decision script: its keys and arguments, encoded straight to the bytes Redis
 * receives, then sent through the template as {@code EVALSHA}, and as {@code EVAL} if Redis has lost
 * the script ({@code NOSCRIPT}).
 *
 * <p>This does what the template's script executor does, minus what costs on every call there: a
 * proxy around the connection, and a {@code String} then a {@code byte[]} per argument. The
 * connection, its error translation and the script's SHA are still the template's and the
 * {@link RedisScript}'s.
 */
final class DecisionCall {

    static final int KEYS_PER_LIMIT = 3;

    static final int ARGS_PER_LIMIT = 7;

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

    private int added;

    /**
     * Starts a call.
     * @param mode the script's mode, as bytes: acquire, check or peek
     * @param limits how many limits the call carries
     */
    DecisionCall(byte[] mode, int limits) {
        this.limits = limits;
        this.keysAndArgs = new byte[limits * (KEYS_PER_LIMIT + ARGS_PER_LIMIT) + 2][];
        int args = limits * KEYS_PER_LIMIT;
        this.keysAndArgs[args] = mode;
        this.keysAndArgs[args + 1] = number(limits);
    }

    /** Adds a limit: its three keys, from its state key, and its seven arguments. */
    DecisionCall add(String stateKey, Limit limit, long cost) {
        boolean shadow = limit.mode() == Limit.Mode.SHADOW;
        byte[] state = bytes(stateKey);
        int key = this.added * KEYS_PER_LIMIT;
        this.keysAndArgs[key] = state;
        this.keysAndArgs[key + 1] = concat(state, shadow ? SHADOW_BAN : BAN);
        this.keysAndArgs[key + 2] = concat(state, ALERT);
        int arg = this.limits * KEYS_PER_LIMIT + 2 + this.added * ARGS_PER_LIMIT;
        Duration banFor = limit.banFor();
        this.keysAndArgs[arg] = number(limit.algorithm().ordinal() + 1);
        this.keysAndArgs[arg + 1] = number(limit.max());
        this.keysAndArgs[arg + 2] = number(limit.window().toMillis());
        this.keysAndArgs[arg + 3] = number(cost);
        this.keysAndArgs[arg + 4] = number(limit.alertAt());
        this.keysAndArgs[arg + 5] = number((banFor != null) ? banFor.toMillis() : 0);
        this.keysAndArgs[arg + 6] = number(shadow ? 1 : 0);
        this.added++;
        return this;
    }

    /**
     * Runs the script once and returns its reply.
     * @param redis the template whose connection runs it
     * @param script the script, for its SHA and, on NOSCRIPT, its text
     * @param replySize how many integers the reply must hold
     * @return the reply
     * @throws IllegalStateException if the reply is not {@code replySize} integers
     */
    List<Long> execute(StringRedisTemplate redis, RedisScript<?> script, int replySize) {
        if (this.added != this.limits) {
            throw new IllegalStateException("Added " + this.added + " of " + this.limits + " limits");
        }
        int numKeys = this.limits * KEYS_PER_LIMIT;
        // exposeConnection: the callback is ours and keeps no reference, so no proxy is needed
        List<?> reply = redis.execute((RedisCallback<List<?>>) connection -> run(connection, script, numKeys), true);
        if (reply == null || reply.size() != replySize) {
            throw new IllegalStateException("Unexpected reply from the limiter script: " + reply);
        }
        List<Long> numbers = new ArrayList<>(replySize);
        for (Object value : reply) {
            if (!(value instanceof Long number)) {
                throw new IllegalStateException("Unexpected reply from the limiter script: " + reply);
            }
            numbers.add(number);
        }
        return numbers;
    }

    private @Nullable List<?> run(RedisConnection connection, RedisScript<?> script, int numKeys) {
        try {
            return connection.scriptingCommands().evalSha(script.getSha1(), ReturnType.MULTI, numKeys, this.keysAndArgs);
        }
        catch (DataAccessException ex) {
            if (!isNoScript(ex)) {
                throw ex;
            }
            // the script cache was lost (restart, failover, SCRIPT FLUSH): this run did not happen
            return connection.scriptingCommands()
                .eval(bytes(script.getScriptAsString()), ReturnType.MULTI, numKeys, this.keysAndArgs);
        }
    }

    private static boolean isNoScript(Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    /** Encodes a script mode once, for the constants of the limiter. */
    static byte[] mode(String mode) {
        return bytes(mode);
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
