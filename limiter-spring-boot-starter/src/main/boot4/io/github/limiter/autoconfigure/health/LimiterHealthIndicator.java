package io.github.limiter.autoconfigure.health;

import io.github.limiter.autoconfigure.RedisEvictions;
import io.github.limiter.redis.LocalRefusalsSubscription;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Reports {@link LimiterHealthCheck} as Spring Boot 4's health: {@code UP} while the limiter's
 * Redis answers, {@code DOWN} (limited calls follow their on-failure setting) while it does not.
 */
class LimiterHealthIndicator implements HealthIndicator {

    private final LimiterHealthCheck check;

    LimiterHealthIndicator(RedisRateLimiter rateLimiter, ObjectProvider<LocalRefusalsSubscription> subscription,
            ObjectProvider<RedisEvictions> evictions) {
        this.check = new LimiterHealthCheck(rateLimiter, subscription, evictions);
    }

    @Override
    public Health health() {
        LimiterHealthCheck.Result result = this.check.probe();
        return (result.up() ? Health.up() : Health.down()).withDetails(result.details()).build();
    }

}
