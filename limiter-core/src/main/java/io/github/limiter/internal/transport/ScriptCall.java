package io.github.limiter.internal.transport;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * One script call as a {@link ScriptRunner} sends it: the script, its keys and arguments already
 * encoded to the bytes Redis receives, the size of the reply it expects, and what becomes of a
 * reply that arrives after the caller stopped waiting. What the bytes mean is the caller's: the
 * runners know clients, not the limiter's scripts.
 */
public interface ScriptCall {

    /**
     * Returns the script to run.
     * @return the script, whose SHA-1 is sent first
     */
    RedisScript<List<Long>> script();

    /**
     * Returns the keys, then the arguments, as {@code EVALSHA} takes them.
     * @return the keys and arguments
     */
    byte[][] keysAndArgs();

    /**
     * Returns how many of {@link #keysAndArgs()} are keys.
     * @return the number of keys
     */
    int numKeys();

    /**
     * Returns how many values the script's reply holds: a coalesced run's reply is split by them.
     * @return the reply's size
     */
    int replySize();

    /**
     * Reads the script's reply as the caller does: checked, and in the caller's form.
     * @param reply the reply as the client gave it
     * @return the reply as the caller reads it
     * @throws IllegalStateException if the reply is not what the script returns
     */
    List<Long> read(@Nullable List<?> reply);

    /** Marks the call as on its way to Redis: from now on, the script may run whatever happens here. */
    void sending();

    /**
     * Returns whether the call went on its way to Redis.
     * @return {@code true} once {@link #sending()} was called
     */
    boolean sent();

    /**
     * Hands over a reply that came after the caller stopped waiting: the script ran.
     * @param reply the reply, as {@link #read} gave it
     */
    void repliedLate(List<Long> reply);

    /**
     * Hands over the failure that ended a call after its caller stopped waiting: no reply will come.
     * @param failure what ended it
     */
    void unansweredLate(Throwable failure);

}
