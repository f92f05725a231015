package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.DecoratedRedisConnection;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * Whether the limiter's Redis may evict the limiter's keys, which lifts bans and resets counts: every
 * {@code maxmemory-policy} but {@code noeviction} may, once Redis reaches {@code maxmemory}, since
 * every limiter key has a TTL. Read from {@code INFO} (which managed services allow where they deny
 * {@code CONFIG GET}) when the limiter connects, then again at most once every 10 s, when the
 * health probe or a meter asks: a probe or a scrape costs Redis nothing more.
 *
 * <p>At the start, a policy that evicts is logged once at WARN, or, where
 * {@code limiter.redis.require-noeviction} is set, fails the start. A later reading that changes the
 * verdict (a {@code CONFIG SET}, a failover to a master configured otherwise) is logged once: at
 * WARN, or at ERROR where {@code noeviction} is required (health then reports the refusal).
 *
 * <p>Internal API, for the health indicator and the meters; it may change in any release.
 *
 * @since 0.1.0
 */
public final class RedisEvictions {

    /** How often, at most, the policy and the evictions are read again: one {@code INFO} per interval. */
    static final Duration READ_INTERVAL = Duration.ofSeconds(10);

    private static final Log logger = LogFactory.getLog(RedisEvictions.class);

    private static final String REQUIRE = "limiter.redis.require-noeviction";

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            RedisEvictions.class.getClassLoader());

    private final StringRedisTemplate redis;

    private final Duration timeout;

    private final boolean requireNoEviction;

    private final long intervalNanos;

    private final AtomicBoolean reading = new AtomicBoolean();

    private volatile @Nullable EvictionReading latest;

    private volatile long readAt;

    private volatile boolean read;

    // the verdict last logged: null before the first reading
    private @Nullable Boolean reportedEvicting;

    RedisEvictions(StringRedisTemplate redis, LimiterRedisProperties properties, Duration interval) {
        this.redis = redis;
        this.timeout = properties.getTimeout();
        this.requireNoEviction = properties.isRequireNoeviction();
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Reads the policy now, as the limiter connects: logs a policy that evicts once at WARN. A
     * reading that fails (a slow Redis, a server whose {@code INFO} lacks the policy) is logged and
     * does not fail the start: the next reading decides.
     * @throws Refused if the policy evicts and {@code noeviction} is required
     */
    void check() {
        EvictionReading reading;
        try {
            reading = read();
        }
        catch (RuntimeException ex) {
            logger.warn("Rate limiting could not read Redis's maxmemory-policy as it connected ("
                    + ex.getClass().getSimpleName() + ": " + ex.getMessage()
                    + "); its health probe and meters read it again");
            return;
        }
        this.latest = reading;
        if (report(reading, true) && this.requireNoEviction) {
            throw new Refused(message(reading));
        }
    }

    /**
     * Returns the {@code maxmemory-policy} of the limiter's Redis (over Redis Cluster, of the master
     * most likely to evict the limiter's keys), reading it again if the last reading is older than
     * the interval.
     * @return the policy, such as {@code noeviction}; {@code null} before Redis has answered
     */
    public @Nullable String policy() {
        EvictionReading reading = latest();
        return (reading != null) ? reading.policy() : null;
    }

    /**
     * Returns why the limiter refuses its Redis: its policy evicts the limiter's keys although
     * {@code limiter.redis.require-noeviction} is set. Found after the start (the limiter connected
     * in the background, or the policy changed), it cannot fail the start, so health reports it.
     * @return the message, or {@code null} if nothing is refused
     */
    public @Nullable String refusal() {
        EvictionReading reading = latest();
        return (this.requireNoEviction && reading != null && reading.evicts()) ? message(reading) : null;
    }

    /**
     * Returns the keys the limiter's Redis evicted, the limiter's and any other, as Redis reports
     * them ({@code evicted_keys} of {@code INFO stats}, added up over the masters of a cluster): a
     * count since each server started, read again if the last reading is older than the interval.
     * @return the evicted keys; 0 before Redis has answered
     */
    public double evictedKeys() {
        EvictionReading reading = latest();
        return (reading != null) ? reading.evictedKeys() : 0;
    }

    private @Nullable EvictionReading latest() {
        if (due() && this.reading.compareAndSet(false, true)) {
            try {
                if (due()) {
                    this.read = true;
                    this.readAt = System.nanoTime();
                    EvictionReading reading = read();
                    this.latest = reading;
                    report(reading, false);
                }
            }
            catch (RuntimeException ex) {
                // Redis down or slow: the health probe and the decisions say so; try again next interval
                logger.debug("Could not read Redis's maxmemory-policy", ex);
            }
            finally {
                this.reading.set(false);
            }
        }
        return this.latest;
    }

    private boolean due() {
        return !this.read || System.nanoTime() - this.readAt >= this.intervalNanos;
    }

    private EvictionReading read() {
        Properties info = this.redis.execute((RedisCallback<Properties>) exposed -> {
            // StringRedisTemplate hands out Spring Data Redis 3's connections in a decorator of its own
            RedisConnection connection = (exposed instanceof DecoratedRedisConnection decorated)
                    ? decorated.getDelegate() : exposed;
            // a cluster answers per node; elsewhere, INFO is to come from the master, as the scripts do
            if (LETTUCE_PRESENT && !(connection instanceof RedisClusterConnection)) {
                Properties master = LettuceMasterInfo.read(connection.getNativeConnection(), this.timeout);
                if (master != null) {
                    return master;
                }
            }
            return connection.serverCommands().info();
        });
        if (info == null) {
            throw new IllegalStateException("Redis answered INFO with nothing");
        }
        return EvictionReading.of(info);
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
    static final class Refused extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }

    }

}
