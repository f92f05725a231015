package io.github.limiter.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.internal.RedisServerSettings;
import io.github.limiter.redis.RedisRateLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;

/**
 * What the limiter contributes to the application's health, over the limiter's own connection:
 * whether its Redis answers a {@code PING} (bounded by the limiter's timeout, tried once more before
 * it counts as failed, so one slow command does not fail a probe) and whether the latest decisions
 * succeeded. The details give the Redis version found when the limiter connected and whether unbans
 * and resets from other instances reach this instance. Each change of state is logged once, not
 * each failed probe.
 *
 * <p>The state says what a failure does to the application's calls:
 * <ul>
 * <li>{@link State#UP}: Redis answers and decisions succeed;</li>
 * <li>{@link State#DEGRADED}: Redis fails, and every limit fails open: limited calls proceed,
 * uncounted. The instance serves as well as any other could, so it stays in service (Spring Boot
 * leaves a status it does not order out of the aggregate);</li>
 * <li>{@link State#DOWN}: Redis fails and some limit fails closed, so limited calls are refused; or
 * the Redis user lacks a permission the limiter needs, a configuration error that no instance can
 * serve through.</li>
 * </ul>
 * A permission error found when the limiter connected is checked again by a probe at most every
 * five seconds, so that a grant made while the application runs brings it back. With
 * {@code limiter.redis.require-noeviction}, an evicting {@code maxmemory-policy} found after the
 * start (which it could not fail) is {@code DOWN} too. The details give Redis's
 * {@code maxmemory-policy} and its persistence, read at most once per 10 s, not per probe; a Redis
 * without persistence stays {@code UP}.
 *
 * <p>Independent of the Spring Boot generation: each generation's health indicator reports it.
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
        String misconfiguration = misconfiguration();
        DataAccessException pingFailure = (misconfiguration == null) ? ping() : null;
        RedisRateLimiter.Failing failing = this.rateLimiter.failing();
        String evictionRefusal = serverSettings(details);
        State state;
        String error = null;
        if (misconfiguration != null) {
            state = State.DOWN;
            error = misconfiguration;
            details.put("errorKind", RedisRateLimiter.MISCONFIGURED);
        }
        else if (failing != null && failing.misconfigured()) {
            state = State.DOWN;
            error = failing.message();
            details.put("errorKind", failing.kind());
        }
        else if (pingFailure != null || failing != null) {
            boolean failsClosed = failsClosed();
            state = failsClosed ? State.DOWN : State.DEGRADED;
            String kind = (pingFailure != null) ? RedisRateLimiter.failureKind(pingFailure) : failing.kind();
            error = (pingFailure != null) ? RedisRateLimiter.failureMessage(pingFailure) : failing.message();
            details.put("errorKind", kind);
            details.put("limitsFailClosed", failsClosed);
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
        if (failing != null) {
            details.put("failingSince", failing.since().toString());
            details.put("failedDecisions", failing.failures());
        }
        String version = this.rateLimiter.redisVersion();
        if (version != null) {
            details.put("redisVersion", version);
        }
        if (this.rateLimiter.subscribes()) {
            details.put("invalidations", this.rateLimiter.hearsOtherInstances() ? "subscribed" : "not subscribed");
        }
        details.put("remembersRefusals", this.rateLimiter.remembersRefusals());
        logChange(state, logged(misconfiguration != null || (failing != null && failing.misconfigured()),
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
    private @Nullable String misconfiguration() {
        String found = this.rateLimiter.misconfiguration();
        if (found != null && System.nanoTime() - this.lastRecheck >= RECHECK_EVERY) {
            this.lastRecheck = System.nanoTime();
            try {
                this.rateLimiter.check();
                // the subscription's, if it is refused too
                found = this.rateLimiter.misconfiguration();
            }
            catch (RuntimeException ex) {
                if (RedisRateLimiter.MISCONFIGURED.equals(RedisRateLimiter.failureKind(ex))) {
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
