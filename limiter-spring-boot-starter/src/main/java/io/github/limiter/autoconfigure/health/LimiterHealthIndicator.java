package io.github.limiter.autoconfigure.health;

import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports the limiter's Redis: reachable over the limiter's own connection, recent enough, and
 * able to load the decision script. Down means limited calls follow their on-failure setting.
 */
class LimiterHealthIndicator extends AbstractHealthIndicator {

    private final RedisRateLimiter rateLimiter;

    LimiterHealthIndicator(RedisRateLimiter rateLimiter) {
        super("Rate limiting cannot reach Redis");
        this.rateLimiter = rateLimiter;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetail("redisVersion", this.rateLimiter.check()).withDetail("scripts", "loaded");
    }

}
