package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.github.limiter.Decision;
import io.github.limiter.RateLimiter;
import io.github.limiter.support.LimitIds;
import io.github.limiter.support.Windows;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link RateLimiter} that decides in Redis with one atomic Lua script per call.
 *
 * <p>Internal API; applications use the {@link RateLimiter} bean the starter provides.
 */
public final class RedisRateLimiter implements RateLimiter {

    private static final String ONE = "1";

    private final StringRedisTemplate redis;

    private final String keyPrefix;

    private final RedisScript<List<Long>> fixedWindow = LimiterScripts.fixedWindow();

    /**
     * Creates a limiter.
     * @param redis the template the scripts run through
     * @param keyPrefix the prefix of every key the limiter writes, such as {@code "limiter:"}
     */
    public RedisRateLimiter(StringRedisTemplate redis, String keyPrefix) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
    }

    @Override
    public Decision tryAcquire(String limitId, String key, long max, Duration window) {
        checkArguments(limitId, key, max, window);
        List<Long> result = this.redis.execute(this.fixedWindow,
                List.of(RedisKeys.counter(this.keyPrefix, limitId, key)), Long.toString(max),
                Long.toString(window.toMillis()), ONE);
        if (result == null || result.size() != 3) {
            throw new IllegalStateException("Unexpected reply from the fixed-window script: " + result);
        }
        boolean allowed = result.get(0) == 1L;
        long count = result.get(1);
        Duration resetAfter = Duration.ofMillis(result.get(2));
        return new Decision(allowed, max, count, Math.max(0, max - count), allowed ? Duration.ZERO : resetAfter,
                resetAfter);
    }

    private static void checkArguments(String limitId, String key, long max, Duration window) {
        Objects.requireNonNull(limitId, "limitId must not be null");
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(window, "window must not be null");
        String problem = LimitIds.problemWith(limitId);
        if (problem != null) {
            throw new IllegalArgumentException("limitId '" + limitId + "' " + problem);
        }
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        String windowProblem = Windows.problemWith(window);
        if (windowProblem != null) {
            throw new IllegalArgumentException("window " + window + " " + windowProblem);
        }
    }

}
