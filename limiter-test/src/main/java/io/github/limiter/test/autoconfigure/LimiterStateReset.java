package io.github.limiter.test.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import io.github.limiter.RateLimiter;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.internal.refusals.Invalidators;
import io.github.limiter.redis.RedisRateLimiter;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Forgets every key of the limiter: in Redis, every key under the application's key prefix, and in
 * the limiter's memory of refused keys, here and on every instance. For {@link RateLimitTester#resetAll()}.
 */
final class LimiterStateReset {

    private static final int SCAN_COUNT = 1000;

    private static final int UNLINK_BATCH = 500;

    private static final Duration EVENTS_WRITTEN_WITHIN = Duration.ofSeconds(5);

    private final ObjectProvider<LimiterProperties> properties;

    private final ObjectProvider<RateLimiter> rateLimiter;

    private final ObjectProvider<RedisConnectionFactory> connectionFactory;

    LimiterStateReset(ObjectProvider<LimiterProperties> properties, ObjectProvider<RateLimiter> rateLimiter,
            ObjectProvider<RedisConnectionFactory> connectionFactory) {
        this.properties = properties;
        this.rateLimiter = rateLimiter;
        this.connectionFactory = connectionFactory;
    }

    void run() {
        LimiterProperties limiterProperties = this.properties.getIfAvailable();
        if (limiterProperties == null) {
            // the limiter is switched off: it wrote nothing
            return;
        }
        // a recent event written after the keys are deleted would show in the next test
        RateLimiter rateLimiter = this.rateLimiter.getIfUnique();
        if (rateLimiter instanceof RedisRateLimiter limiter) {
            limiter.awaitRecentEventsWritten(EVENTS_WRITTEN_WITHIN);
        }
        String prefix = limiterProperties.getKeyPrefix();
        StringRedisTemplate redis = new StringRedisTemplate(connectionFactory());
        List<String> keys = scan(redis, prefix);
        for (int from = 0; from < keys.size(); from += UNLINK_BATCH) {
            redis.unlink(keys.subList(from, Math.min(from + UNLINK_BATCH, keys.size())));
        }
        // after the keys are gone, so that a refusal cannot be remembered again from them
        Consumer<String> invalidator = (rateLimiter != null) ? Invalidators.of(rateLimiter) : null;
        if (invalidator != null) {
            keys.stream()
                .map(key -> LimiterKeys.stateKey(prefix, key))
                .filter(Objects::nonNull)
                .distinct()
                .forEach(invalidator);
        }
    }

    private static List<String> scan(StringRedisTemplate redis, String prefix) {
        List<String> keys = new ArrayList<>();
        ScanOptions options = ScanOptions.scanOptions().match(LimiterKeys.pattern(prefix)).count(SCAN_COUNT).build();
        try (Cursor<String> cursor = redis.scan(options)) {
            cursor.forEachRemaining(keys::add);
        }
        return keys;
    }

    private RedisConnectionFactory connectionFactory() {
        RedisConnectionFactory factory = this.connectionFactory.getIfUnique();
        if (factory == null) {
            throw new IllegalStateException(
                    "The application has no single RedisConnectionFactory to reset the limiter's keys through");
        }
        return factory;
    }

}
