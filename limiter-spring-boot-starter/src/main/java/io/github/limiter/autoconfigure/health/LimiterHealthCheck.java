package io.github.limiter.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.internal.RedisServerSettings;
import io.github.limiter.internal.transport.FailureKind;
import io.github.limiter.redis.RedisRateLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The {@code limiter} health component, whichever Spring Boot generation reports it: reads
 * {@link RedisRateLimiter#probe()} and the Redis settings, and says {@link State#UP},
 * {@link State#DEGRADED} (Redis fails, every limit fails open: the instance stays in service) or
 * {@link State#DOWN} (Redis fails and some limit fails closed, or a configuration error). A
 * permission error is checked again at most every five seconds, so a grant brings it back; each
 * change of state is logged once. The details are listed in {@code docs/operations.md}.
 */
final class LimiterHealthCheck {

    /** The status of a limiter whose Redis fails while its limits fail open. */
    static final String DEGRADED = "DEGRADED";

    private static final Log logger = LogFactory.getLog(LimiterHealthCheck.class);

    private static final long RECHECK_EVERY = TimeUnit.SECONDS.toNanos(5);

    private final RedisRateLimiter rateLimiter;

    private final ObjectProvider<RateLimitAdvisor> advisor;

    private final ObjectProvider<RedisServerSettings> settings;

    private final AtomicReference<State> reported = new AtomicReference<>(State.UP);

    private volatile long lastRecheck = System.nanoTime();

    LimiterHealthCheck(RedisRateLimiter rateLimiter, ObjectProvider<RateLimitAdvisor> advisor,
            ObjectProvider<RedisServerSettings> settings) {
        this.rateLimiter = rateLimiter;
        this.advisor = advisor;
        this.settings = settings;
    }

    Result probe() {
        Map<String, Object> details = new LinkedHashMap<>();
        RedisRateLimiter.Health health = this.rateLimiter.health();
        String misconfiguration = misconfiguration(health);
        if (misconfiguration == null) {
            health = this.rateLimiter.probe();
        }
        RedisRateLimiter.Failure pingFailure = health.pingFailure();
        RedisRateLimiter.FailureStreak streak = health.failureStreak();
        String evictionRefusal = serverSettings(details);
        State state;
        String error = null;
        if (misconfiguration != null) {
            state = State.DOWN;
            error = misconfiguration;
            details.put("errorKind", FailureKind.NOPERM.tag());
        }
        else if (streak != null && streak.misconfigured()) {
            state = State.DOWN;
            error = streak.message();
            details.put("errorKind", streak.kind());
        }
        else if (pingFailure != null || streak != null) {
            boolean failsClosed = failsClosed();
            state = failsClosed ? State.DOWN : State.DEGRADED;
            details.put("errorKind", (pingFailure != null) ? pingFailure.kind() : streak.kind());
            details.put("limitsFailClosed", failsClosed);
            error = (pingFailure != null) ? pingFailure.message() : streak.message();
        }
        else if (evictionRefusal != null) {
            // limiter.redis.require-noeviction, found after the start: it could not fail the start
            state = State.DOWN;
            error = evictionRefusal;
        }
        else {
            state = State.UP;
        }
        if (error != null) {
            details.put("error", error);
        }
        if (streak != null) {
            details.put("failingSince", streak.since().toString());
            details.put("failedDecisions", streak.failures());
        }
        if (health.redisVersion() != null) {
            details.put("redisVersion", health.redisVersion());
        }
        if (health.subscribes()) {
            details.put("invalidations", health.hearsOtherInstances() ? "subscribed" : "not subscribed");
        }
        details.put("remembersRefusals", health.remembersRefusals());
        logChange(state, logged(misconfiguration != null || (streak != null && streak.misconfigured()),
                evictionRefusal != null && error == evictionRefusal, error));
        return new Result(state, details);
    }

    /** What the health's line says: configuration errors were logged at ERROR, whole, already. */
    private static @Nullable String logged(boolean permission, boolean evictionPolicy, @Nullable String error) {
        if (permission) {
            return "a configuration error: the Redis user lacks a permission the limiter needs, as logged at ERROR";
        }
        if (evictionPolicy) {
            return "a configuration error: Redis's maxmemory-policy evicts and limiter.redis.require-noeviction is "
                    + "set, as logged at ERROR";
        }
        return error;
    }

    /** A permission the Redis user lacks, after checking again if the last check is five seconds old. */
    private @Nullable String misconfiguration(RedisRateLimiter.Health health) {
        String found = health.misconfiguration();
        if (found != null && System.nanoTime() - this.lastRecheck >= RECHECK_EVERY) {
            this.lastRecheck = System.nanoTime();
            try {
                this.rateLimiter.check();
                // the subscription's, if it is refused too
                found = this.rateLimiter.health().misconfiguration();
            }
            catch (RuntimeException ex) {
                if (FailureKind.of(ex) == FailureKind.NOPERM) {
                    found = ex.getMessage();
                }
                // otherwise Redis failing some other way: the PING says so
            }
        }
        return found;
    }

    /**
     * Adds {@code maxmemoryPolicy} and {@code persistence}; returns why the limiter refuses the
     * policy, if it does. Persistence never changes the state: a Redis that would lose the bans on
     * a restart is a risk, which the log names, not an outage.
     */
    private @Nullable String serverSettings(Map<String, Object> details) {
        RedisServerSettings settings = this.settings.getIfAvailable();
        if (settings == null) {
            return null;
        }
        String policy = settings.policy();
        if (policy != null) {
            details.put("maxmemoryPolicy", policy);
        }
        String persistence = settings.persistence();
        if (persistence != null) {
            details.put("persistence", persistence);
        }
        return settings.refusal();
    }

    private boolean failsClosed() {
        RateLimitAdvisor advisor = this.advisor.getIfAvailable();
        return advisor != null && advisor.failsClosed();
    }

    private void logChange(State state, @Nullable String error) {
        if (this.reported.getAndSet(state) == state) {
            return;
        }
        switch (state) {
            case UP -> logger.info("Rate limiting's health is UP again: Redis answers and decisions succeed");
            case DEGRADED -> logger.warn("Rate limiting's health is " + DEGRADED + ": " + error
                    + "; every limit fails open, so limited calls proceed uncounted and the instance stays in service");
            case DOWN -> logger.warn("Rate limiting's health is DOWN: " + error);
        }
    }

    /** What the limiter's health says. */
    enum State {

        /** Redis answers and decisions succeed. */
        UP,

        /** Redis fails and every limit fails open. */
        DEGRADED,

        /** Redis fails and some limit fails closed, or the Redis user lacks a permission. */
        DOWN

    }

    /**
     * One probe's outcome.
     * @param state what the limiter's health says
     * @param details what the indicator shows
     */
    record Result(State state, Map<String, Object> details) {
    }

}
