package io.github.limiter.autoconfigure.health;

import java.util.concurrent.atomic.AtomicReference;

import io.github.limiter.redis.LocalRefusalsSubscription;
import io.github.limiter.redis.RedisRateLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.dao.DataAccessException;

/**
 * Reports whether the limiter's Redis answers, over the limiter's own connection: one {@code PING}
 * per probe, bounded by the limiter's timeout, and tried once more before the probe says
 * {@code DOWN}, so one slow command does not fail a probe. Down means limited calls follow their
 * on-failure setting. The details give the Redis version found at start-up and whether unbans and
 * resets from other instances reach this one.
 *
 * <p>Each change of state is logged once, not each failed probe.
 */
class LimiterHealthIndicator implements HealthIndicator {

    private static final Log logger = LogFactory.getLog(LimiterHealthIndicator.class);

    private final RedisRateLimiter rateLimiter;

    private final ObjectProvider<LocalRefusalsSubscription> subscription;

    private final AtomicReference<Status> reported = new AtomicReference<>(Status.UP);

    LimiterHealthIndicator(RedisRateLimiter rateLimiter, ObjectProvider<LocalRefusalsSubscription> subscription) {
        this.rateLimiter = rateLimiter;
        this.subscription = subscription;
    }

    @Override
    public Health health() {
        DataAccessException failure = probe();
        Health.Builder health = (failure != null) ? Health.down().withDetail("error", describe(failure)) : Health.up();
        String version = this.rateLimiter.redisVersion();
        if (version != null) {
            health.withDetail("redisVersion", version);
        }
        LocalRefusalsSubscription subscription = this.subscription.getIfAvailable();
        if (subscription != null) {
            health.withDetail("invalidations", subscription.isSubscribed() ? "subscribed" : "not subscribed");
        }
        health.withDetail("remembersRefusals", this.rateLimiter.remembersRefusals());
        Health result = health.build();
        logChange(result.getStatus(), failure);
        return result;
    }

    private @Nullable DataAccessException probe() {
        try {
            this.rateLimiter.ping();
            return null;
        }
        catch (DataAccessException first) {
            try {
                this.rateLimiter.ping();
                return null;
            }
            catch (DataAccessException second) {
                return second;
            }
        }
    }

    private void logChange(Status status, @Nullable DataAccessException failure) {
        if (this.reported.getAndSet(status).equals(status)) {
            return;
        }
        if (failure != null) {
            logger.warn("Rate limiting's Redis is DOWN: " + describe(failure)
                    + "; limited calls follow their on-failure setting");
        }
        else {
            logger.info("Rate limiting's Redis is UP again");
        }
    }

    private static String describe(DataAccessException failure) {
        return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

}
