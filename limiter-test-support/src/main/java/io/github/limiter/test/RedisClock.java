package io.github.limiter.test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Redis's clock, which decides every limit: read with {@code TIME}, and waited for, a bounded while,
 * when a test needs a period of it to end (a calendar day chosen to end seconds into the test).
 */
public final class RedisClock {

    private RedisClock() {
    }

    /**
     * Returns Redis's time.
     * @param redis the Redis the limiter decides on
     * @return milliseconds since 1970
     */
    public static long millis(StringRedisTemplate redis) {
        Long now = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
        if (now == null) {
            throw new IllegalStateException("Redis answered no TIME");
        }
        return now;
    }

    /**
     * Returns a zone whose calendar day ends at an instant, for a calendar limit whose period ends
     * while a test runs: the offset, within what {@link ZoneOffset} allows, at which that instant
     * is midnight.
     * @param epochMillis the instant, a whole second, in milliseconds since 1970
     * @return the zone
     */
    public static ZoneOffset zoneWhoseDayEndsAt(long epochMillis) {
        if (epochMillis % 1000 != 0) {
            throw new IllegalArgumentException("Zone offsets are whole seconds: " + epochMillis);
        }
        int offset = (int) Math.floorMod(-epochMillis / 1000, 86_400L);
        return ZoneOffset.ofTotalSeconds((offset > 64_800) ? offset - 86_400 : offset);
    }

    /**
     * Returns a zone whose calendar day ends a few seconds from now on Redis's clock: at the
     * first whole second at least {@code atLeast} away.
     * @param redis the Redis the limiter decides on
     * @param atLeast how long the day must still last
     * @return the day's end, in milliseconds since 1970, with its zone
     */
    public static DayEnd dayEndingIn(StringRedisTemplate redis, Duration atLeast) {
        long end = ((millis(redis) + atLeast.toMillis()) / 1000 + 1) * 1000;
        return new DayEnd(end, zoneWhoseDayEndsAt(end));
    }

    /**
     * The end of a calendar day, and the zone whose day ends then.
     *
     * @param epochMillis the end, in milliseconds since 1970
     * @param zone the zone
     */
    public record DayEnd(long epochMillis, ZoneOffset zone) {

    }

    /**
     * Returns once Redis's clock has reached {@code epochMillis}.
     * @param redis the Redis the limiter decides on
     * @param epochMillis the time to wait for, in milliseconds since 1970
     * @param timeout how long to wait at most
     * @throws IllegalStateException if Redis's clock did not reach it in time
     */
    public static void await(StringRedisTemplate redis, long epochMillis, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long now;
        while ((now = millis(redis)) < epochMillis) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Redis's clock was at " + now + ", not yet " + epochMillis + ", after "
                        + timeout);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(epochMillis - now, 100)));
        }
    }

}
