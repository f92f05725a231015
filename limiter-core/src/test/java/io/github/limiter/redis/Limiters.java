package io.github.limiter.redis;

import java.util.List;

import io.github.limiter.RateLimitListener;
import io.github.limiter.internal.refusals.LocalRefusals;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Limiters made as the builder makes them, with what a test needs to reach: its local refusals. */
final class Limiters {

    private Limiters() {
    }

    static RedisRateLimiter of(StringRedisTemplate redis, String keyPrefix, List<? extends RateLimitListener> listeners) {
        return of(redis, keyPrefix, listeners, null);
    }

    static RedisRateLimiter of(StringRedisTemplate redis, String keyPrefix, List<? extends RateLimitListener> listeners,
            @Nullable LocalRefusals localRefusals) {
        return of(redis, keyPrefix, listeners, localRefusals, RedisRateLimiter.DEFAULT_MAX_BATCH);
    }

    static RedisRateLimiter of(StringRedisTemplate redis, String keyPrefix, List<? extends RateLimitListener> listeners,
            @Nullable LocalRefusals localRefusals, int maxBatch) {
        return new RedisRateLimiter(redis, keyPrefix, List.copyOf(listeners), localRefusals, maxBatch);
    }

}
