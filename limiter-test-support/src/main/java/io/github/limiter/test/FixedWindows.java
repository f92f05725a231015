package io.github.limiter.test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Fixed windows are periods of Redis's clock, aligned on multiples of their length (a 60 s window
 * starts at each minute). A test that expects several calls to fall in one window starts them
 * where the window has room for them: {@link #awaitRoom} waits, when the current window is about
 * to end, for the next one to start. {@link #count} reads a key's count as the limiter keeps it.
 */
public final class FixedWindows {

    // what limiter-core's scripts add to a window's count once a ban marks it (common.lua's BAN_MARK)
    static final long BAN_MARK = 1L << 51;

    private FixedWindows() {
    }

    /**
     * Returns once the fixed window of {@code window} that Redis's clock is in has at least
     * {@code room} left: at once, or at the start of the next window, which Redis's clock says.
     * @param redis the Redis the limiter decides on
     * @param window the window's length
     * @param room how long the test's calls need, at most the window
     */
    public static void awaitRoom(StringRedisTemplate redis, Duration window, Duration room) {
        awaitRoom(redis.getRequiredConnectionFactory(), window, room);
    }

    /**
     * Returns once the fixed window of {@code window} that Redis's clock is in has at least
     * {@code room} left: at once, or at the start of the next window, which Redis's clock says.
     * @param factory connects to the Redis the limiter decides on
     * @param window the window's length
     * @param room how long the test's calls need, at most the window
     */
    public static void awaitRoom(RedisConnectionFactory factory, Duration window, Duration room) {
        long length = window.toMillis();
        if (room.toMillis() > length) {
            throw new IllegalArgumentException("No window of " + window + " has room for " + room);
        }
        // at most two looks: the second is at the start of a window, which has the whole window left
        for (int look = 0; look < 3; look++) {
            long left = left(factory, length);
            if (left >= room.toMillis()) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left + 1));
        }
        throw new IllegalStateException("Redis's clock gave no window of " + window + " with " + room + " left");
    }

    /**
     * Returns how long the fixed window of {@code window} that Redis's clock is in has left.
     * @param factory connects to Redis
     * @param window the window's length
     * @return the time left, at least 1 ms
     */
    public static Duration left(RedisConnectionFactory factory, Duration window) {
        return Duration.ofMillis(left(factory, window.toMillis()));
    }

    /**
     * Returns the whole seconds, rounded up, left in the fixed window of {@code window} that this
     * machine's clock is in: what a reset or {@code Retry-After} of that window says, for the test
     * Redis servers, which run on this machine. A reset read between two of these lies between them.
     * @param window the window's length
     * @return the seconds left, at least 1
     */
    public static long secondsLeft(Duration window) {
        long length = window.toMillis();
        long left = length - System.currentTimeMillis() % length;
        return (left + 999) / 1000;
    }

    /**
     * Returns a fixed-window state key's count in the windows still running, as the limiter reads
     * it: a hash of counts by the end of their window (ms since 1970).
     * @param redis the Redis the limiter decides on
     * @param stateKey the state key
     * @return the count, 0 if the key has none
     */
    public static long count(StringRedisTemplate redis, String stateKey) {
        Long now = redis.execute((RedisCallback<Long>) c -> c.serverCommands().time(TimeUnit.MILLISECONDS));
        long count = 0;
        for (Map.Entry<Object, Object> field : redis.opsForHash().entries(stateKey).entrySet()) {
            if (now != null && Long.parseLong((String) field.getKey()) > now) {
                long value = Long.parseLong((String) field.getValue());
                count += (value < 0) ? value + BAN_MARK : value;
            }
        }
        return count;
    }

    private static long left(RedisConnectionFactory factory, long length) {
        try (var connection = factory.getConnection()) {
            Long now = ((RedisCallback<Long>) c -> c.serverCommands().time(TimeUnit.MILLISECONDS))
                .doInRedis(connection);
            if (now == null) {
                throw new IllegalStateException("Redis answered no TIME");
            }
            return length - now % length;
        }
    }

}
