package io.github.limiter.autoconfigure.health;

import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.internal.RedisServerSettings;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Reports {@link LimiterHealthCheck} as Spring Boot 4's health: {@code UP} while the limiter's
 * Redis answers and its decisions succeed; while they fail, {@code DEGRADED} if every limit fails
 * open, else {@code DOWN}; {@code DOWN} while the Redis user lacks a permission the limiter needs.
 */
class LimiterHealthIndicator implements HealthIndicator {

    /**
     * Redis fails and every limit fails open: not {@code UP}, and left out of the aggregate
     * status, which orders {@code DOWN}, {@code OUT_OF_SERVICE}, {@code UP} and {@code UNKNOWN} only.
     */
    private static final Status DEGRADED = new Status(LimiterHealthCheck.DEGRADED,
            "Redis fails and every limit fails open: limited calls proceed uncounted");

    private final LimiterHealthCheck check;

    LimiterHealthIndicator(RedisRateLimiter rateLimiter, ObjectProvider<RateLimitAdvisor> advisor,
            ObjectProvider<RedisServerSettings> settings) {
        this.check = new LimiterHealthCheck(rateLimiter, advisor, settings);
    }

    @Override
    public Health health() {
        LimiterHealthCheck.Result result = this.check.probe();
        Status status = switch (result.state()) {
            case UP -> Status.UP;
            case DEGRADED -> DEGRADED;
            case DOWN -> Status.DOWN;
        };
        return Health.status(status).withDetails(result.details()).build();
    }

}
