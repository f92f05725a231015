package io.github.limiter.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.limiter.autoconfigure.RedisEvictions;
import io.github.limiter.redis.LocalRefusalsSubscription;
import io.github.limiter.redis.RedisRateLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;

/**
 * Whether the limiter's Redis answers, over the limiter's own connection: one {@code PING} per
 * probe, bounded by the limiter's timeout, and tried once more before the probe says down, so one
 * slow command does not fail a probe. The details give the Redis version found when the limiter
 * connected, whether unbans and resets from other instances reach this instance, and Redis's
 * {@code maxmemory-policy} (read at most once per 10 s, not per probe). Each change of state is
 * logged once, not each failed probe.
 *
 * <p>Independent of the Spring Boot generation: each generation's health indicator reports it.
 */
final class LimiterHealthCheck {

    private static final Log logger = LogFactory.getLog(LimiterHealthCheck.class);

    private final RedisRateLimiter rateLimiter;

    private final ObjectProvider<LocalRefusalsSubscription> subscription;

    private final ObjectProvider<RedisEvictions> evictions;

    private final AtomicBoolean reportedUp = new AtomicBoolean(true);

    LimiterHealthCheck(RedisRateLimiter rateLimiter, ObjectProvider<LocalRefusalsSubscription> subscription,
            ObjectProvider<RedisEvictions> evictions) {
        this.rateLimiter = rateLimiter;
        this.subscription = subscription;
        this.evictions = evictions;
    }

    Result probe() {
        DataAccessException failure = ping();
        Map<String, Object> details = new LinkedHashMap<>();
        if (failure != null) {
            details.put("error", describe(failure));
        }
        String version = this.rateLimiter.redisVersion();
        if (version != null) {
            details.put("redisVersion", version);
        }
        LocalRefusalsSubscription subscription = this.subscription.getIfAvailable();
        if (subscription != null) {
            details.put("invalidations", subscription.isSubscribed() ? "subscribed" : "not subscribed");
        }
        details.put("remembersRefusals", this.rateLimiter.remembersRefusals());
        String refusal = evictionPolicy(details);
        logChange(failure);
        if (failure == null && refusal != null) {
            // limiter.redis.require-noeviction, found after the start: it could not fail the start
            details.put("error", refusal);
            return new Result(false, details);
        }
        return new Result(failure == null, details);
    }

    /** Adds {@code maxmemoryPolicy}; returns why the limiter refuses it, if it does. */
    private @Nullable String evictionPolicy(Map<String, Object> details) {
        RedisEvictions evictions = this.evictions.getIfAvailable();
        if (evictions == null) {
            return null;
        }
        String policy = evictions.policy();
        if (policy != null) {
            details.put("maxmemoryPolicy", policy);
        }
        return evictions.refusal();
    }

    private @Nullable DataAccessException ping() {
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

    private void logChange(@Nullable DataAccessException failure) {
        boolean up = failure == null;
        if (this.reportedUp.getAndSet(up) == up) {
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

    /**
     * One probe's outcome.
     * @param up whether Redis answered
     * @param details what the indicator shows
     */
    record Result(boolean up, Map<String, Object> details) {
    }

}
