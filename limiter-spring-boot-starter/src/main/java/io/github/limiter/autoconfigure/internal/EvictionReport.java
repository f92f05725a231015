package io.github.limiter.autoconfigure.internal;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the limiter says of its Redis's {@code maxmemory-policy}: every policy but
 * {@code noeviction} may evict the limiter's keys once Redis reaches {@code maxmemory}, since
 * every limiter key has a TTL, which lifts bans and resets counts.
 *
 * <p>At the start, a policy that evicts is logged once at WARN, or, where
 * {@code limiter.redis.require-noeviction} is set, fails the start. A later reading that changes the
 * verdict (a {@code CONFIG SET}, a failover to a master configured otherwise) is logged once: at
 * WARN, or at ERROR where {@code noeviction} is required (health then reports the refusal).
 */
public final class EvictionReport {

    private static final Log logger = LogFactory.getLog(RedisServerSettings.class);

    private static final String REQUIRE = "limiter.redis.require-noeviction";

    private final boolean requireNoEviction;

    // the verdict last logged: null before the first reading
    private @Nullable Boolean reportedEvicting;

    EvictionReport(boolean requireNoEviction) {
        this.requireNoEviction = requireNoEviction;
    }

    /**
     * Logs the reading made as the limiter connects.
     * @throws Refused if the policy evicts and {@code noeviction} is required
     */
    void atStart(EvictionReading reading) {
        if (report(reading, true) && this.requireNoEviction) {
            throw new Refused(message(reading));
        }
    }

    /** Logs a later reading, if its verdict changed. */
    void later(EvictionReading reading) {
        report(reading, false);
    }

    /** Why the limiter refuses its Redis, or {@code null} if it does not. */
    @Nullable String refusal(EvictionReading reading) {
        return (this.requireNoEviction && reading.evicts()) ? message(reading) : null;
    }

    /** Logs a change of verdict once; returns whether the policy evicts. */
    private synchronized boolean report(EvictionReading reading, boolean atStart) {
        boolean evicts = reading.evicts();
        Boolean before = this.reportedEvicting;
        this.reportedEvicting = evicts;
        if (before != null && before == evicts) {
            return evicts;
        }
        if (evicts && !this.requireNoEviction) {
            logger.warn(message(reading));
        }
        else if (evicts && !atStart) {
            logger.error(message(reading));
        }
        else if (!evicts && before != null) {
            logger.info("Redis's maxmemory-policy is now " + reading.policy() + where(reading) + " (maxmemory "
                    + reading.maxmemory() + "): it evicts none of the limiter's keys");
        }
        // at the start, a refusal is thrown, and logged by whoever catches it
        return evicts;
    }

    private String message(EvictionReading reading) {
        String risk = "Redis's maxmemory-policy is " + reading.policy() + where(reading) + " (maxmemory "
                + reading.maxmemory() + "): once Redis is full it evicts the limiter's keys, which lifts bans and "
                + "resets counts, so limits let more calls through than they allow. ";
        String remedy = "Give the limiter a Redis with maxmemory-policy noeviction, or an instance of its own sized "
                + "for its keys";
        return this.requireNoEviction
                ? risk + REQUIRE + " is set, so the limiter refuses it. " + remedy + ", or set " + REQUIRE
                        + "=false to accept the risk."
                : risk + remedy + "; " + REQUIRE + "=true refuses such a Redis at the start.";
    }

    private static String where(EvictionReading reading) {
        return reading.node().isEmpty() ? "" : " on " + reading.node();
    }

    /**
     * The limiter refuses its Redis's {@code maxmemory-policy} ({@code limiter.redis.require-noeviction}):
     * a configuration error, which the message explains whole.
     */
    public static final class Refused extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }

    }

}
