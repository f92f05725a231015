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
 * The settings of the limiter's Redis that decide whether it keeps the limiter's keys: its
 * {@code maxmemory-policy}, since a policy that evicts lifts bans and resets counts once Redis is
 * full (see {@link EvictionReport}). Read from {@code INFO} (which managed services allow where
 * they deny {@code CONFIG GET}) when the limiter connects, then again at most once every 10 s,
 * when the health probe or a meter asks: a probe or a scrape costs Redis nothing more. Each
 * reading is logged only where its verdict changed.
 *
 * <p>Internal API, for the health indicator and the meters; it may change in any release.
 *
 * @since 0.1.0
 */
public final class RedisServerSettings {

    /** How often, at most, the settings are read again: one {@code INFO} per interval. */
    static final Duration READ_INTERVAL = Duration.ofSeconds(10);

    private static final Log logger = LogFactory.getLog(RedisServerSettings.class);

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            RedisServerSettings.class.getClassLoader());

    private final StringRedisTemplate redis;

    private final Duration timeout;

    private final long intervalNanos;

    private final EvictionReport evictions;

    private final AtomicBoolean reading = new AtomicBoolean();

    private volatile @Nullable EvictionReading latest;

    private volatile long readAt;

    private volatile boolean read;

    RedisServerSettings(StringRedisTemplate redis, LimiterRedisProperties properties, Duration interval) {
        this.redis = redis;
        this.timeout = properties.getTimeout();
        this.evictions = new EvictionReport(properties.isRequireNoeviction());
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Reads the settings now, as the limiter connects: logs a policy that evicts once at WARN. A
     * reading that fails (a slow Redis, a server whose {@code INFO} lacks the policy) is logged and
     * does not fail the start: the next reading decides.
     * @throws EvictionReport.Refused if the policy evicts and {@code noeviction} is required
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
        this.evictions.atStart(reading);
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
        return (reading != null) ? this.evictions.refusal(reading) : null;
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
                    this.evictions.later(reading);
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

}
