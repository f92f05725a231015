package io.github.limiter.autoconfigure.internal;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;

import io.github.limiter.internal.transport.FailureKind;
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
 * full (see {@link EvictionReport}), and its persistence, since a Redis that writes nothing to
 * disk loses them all when it restarts (see {@link PersistenceReport}). Read from {@code INFO}
 * (which managed services allow where they deny {@code CONFIG GET}), with the RDB save points from
 * {@code CONFIG GET save} where Redis allows it: when the limiter connects, each time Lettuce
 * reconnects a command connection, and at most once every 10 s when the health probe or a meter
 * asks: a probe or a scrape costs Redis nothing more. Each reading is logged only where its verdict
 * changed, or where a master restarted.
 *
 * <p>Internal API, for the health indicator and the meters; it may change in any release.
 *
 * @since 0.1.0
 */
public final class RedisServerSettings {

    /** How often, at most, the settings are read again: one {@code INFO} per interval. */
    public static final Duration READ_INTERVAL = Duration.ofSeconds(10);

    /**
     * How often, at most, a {@code CONFIG GET} that Redis refused is sent again between
     * connections: each refusal counts in Redis's error statistics and its ACL log.
     */
    static final Duration REFUSED_CONFIG_INTERVAL = Duration.ofMinutes(10);

    private static final Log logger = LogFactory.getLog(RedisServerSettings.class);

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            RedisServerSettings.class.getClassLoader());

    private final StringRedisTemplate redis;

    private final Duration timeout;

    private final long intervalNanos;

    private final EvictionReport evictions;

    private final PersistenceReport persistence = new PersistenceReport();

    // one reading at a time: probes skip a reading under way, a connection waits for it
    private final ReentrantLock reading = new ReentrantLock();

    private volatile @Nullable SettingsReading latest;

    private volatile long readAt;

    private volatile boolean read;

    // why Redis refused CONFIG GET save, and when: asked again on connecting, or after the interval
    private @Nullable String configRefusal;

    private long configRefusedAt;

    /**
     * Creates the reading, which reads nothing until asked.
     * @param redis the limiter's template
     * @param timeout how long a reading may take: {@code limiter.redis.timeout}
     * @param requireNoEviction whether an evicting policy is refused: {@code limiter.redis.require-noeviction}
     * @param interval the least time between two readings
     */
    public RedisServerSettings(StringRedisTemplate redis, Duration timeout, boolean requireNoEviction,
            Duration interval) {
        this.redis = redis;
        this.timeout = timeout;
        this.evictions = new EvictionReport(requireNoEviction);
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Reads the settings now, as the limiter connects: logs a policy that evicts and a Redis without
     * persistence once at WARN. A reading that fails (a slow Redis, a server whose {@code INFO}
     * lacks the policy) is logged and does not fail the start: the next reading decides.
     * @throws EvictionReport.Refused if the policy evicts and {@code noeviction} is required
     */
    public void check() {
        SettingsReading reading;
        this.reading.lock();
        try {
            reading = read(true);
            this.latest = reading;
            this.persistence.report(reading.persistence());
        }
        catch (RuntimeException ex) {
            logger.warn("Rate limiting could not read Redis's maxmemory-policy and persistence as it connected ("
                    + ex.getClass().getSimpleName() + ": " + ex.getMessage()
                    + "); its health probe and meters read them again");
            return;
        }
        finally {
            this.reading.unlock();
        }
        this.evictions.atStart(reading.eviction());
    }

    /**
     * Reads the settings again now, as a command connection to Redis opened again: Redis may have
     * restarted, or a failover moved the connection to another master. Waits for a reading under way.
     */
    public void reconnected() {
        this.reading.lock();
        try {
            readAgain(true);
        }
        finally {
            this.reading.unlock();
        }
    }

    /**
     * Returns the {@code maxmemory-policy} of the limiter's Redis (over Redis Cluster, of the master
     * most likely to evict the limiter's keys), reading it again if the last reading is older than
     * the interval.
     * @return the policy, such as {@code noeviction}; {@code null} before Redis has answered
     */
    public @Nullable String policy() {
        SettingsReading reading = latest();
        return (reading != null) ? reading.eviction().policy() : null;
    }

    /**
     * Returns why the limiter refuses its Redis: its policy evicts the limiter's keys although
     * {@code limiter.redis.require-noeviction} is set. Found after the start (the limiter connected
     * in the background, or the policy changed), it cannot fail the start, so health reports it.
     * @return the message, or {@code null} if nothing is refused
     */
    public @Nullable String refusal() {
        SettingsReading reading = latest();
        return (reading != null) ? this.evictions.refusal(reading.eviction()) : null;
    }

    /**
     * Returns the keys the limiter's Redis evicted, the limiter's and any other, as Redis reports
     * them ({@code evicted_keys} of {@code INFO stats}, added up over the masters of a cluster): a
     * count since each server started, read again if the last reading is older than the interval.
     * @return the evicted keys; 0 before Redis has answered
     */
    public double evictedKeys() {
        SettingsReading reading = latest();
        return (reading != null) ? reading.eviction().evictedKeys() : 0;
    }

    /**
     * Returns what the limiter's Redis writes to disk, so that bans and counts survive its restart
     * (over Redis Cluster, the master most likely to lose them), reading it again if the last
     * reading is older than the interval.
     * @return {@code aof}, {@code rdb} (snapshots only), {@code aof+rdb}, {@code none}, or
     * {@code unknown} (AOF off, and Redis refused {@code CONFIG GET save}); {@code null} before
     * Redis has answered
     */
    public @Nullable String persistence() {
        SettingsReading reading = latest();
        return (reading != null) ? reading.persistence().persistence() : null;
    }

    private @Nullable SettingsReading latest() {
        if (due() && this.reading.tryLock()) {
            try {
                if (due()) {
                    readAgain(false);
                }
            }
            finally {
                this.reading.unlock();
            }
        }
        return this.latest;
    }

    private boolean due() {
        return !this.read || System.nanoTime() - this.readAt >= this.intervalNanos;
    }

    private void readAgain(boolean connected) {
        this.read = true;
        this.readAt = System.nanoTime();
        try {
            SettingsReading reading = read(connected);
            this.latest = reading;
            this.persistence.report(reading.persistence());
            this.evictions.later(reading.eviction());
        }
        catch (RuntimeException ex) {
            // Redis down or slow: the health probe and the decisions say so; try again next interval
            logger.debug("Could not read Redis's maxmemory-policy and persistence", ex);
        }
    }

    /** One {@code INFO} and, unless Redis refused it lately, one {@code CONFIG GET save}. */
    private SettingsReading read(boolean connected) {
        SettingsReading reading = this.redis.execute((RedisCallback<SettingsReading>) exposed -> {
            // StringRedisTemplate hands out Spring Data Redis 3's connections in a decorator of its own
            RedisConnection connection = (exposed instanceof DecoratedRedisConnection decorated)
                    ? decorated.getDelegate() : exposed;
            Properties info = info(connection);
            Properties savePoints = savePoints(connection, connected);
            return new SettingsReading(EvictionReading.of(info),
                    PersistenceReading.of(info, savePoints, this.configRefusal));
        });
        if (reading == null) {
            throw new IllegalStateException("Redis answered INFO with nothing");
        }
        return reading;
    }

    private Properties info(RedisConnection connection) {
        // a cluster answers per node; elsewhere, INFO is to come from the master, as the scripts do
        if (LETTUCE_PRESENT && !(connection instanceof RedisClusterConnection)) {
            Properties master = LettuceMasterInfo.read(connection.getNativeConnection(), this.timeout);
            if (master != null) {
                return master;
            }
        }
        Properties info = connection.serverCommands().info();
        if (info == null) {
            throw new IllegalStateException("Redis answered INFO with nothing");
        }
        return info;
    }

    /**
     * The RDB save points, which {@code INFO} does not give; {@code null} where Redis refuses
     * {@code CONFIG GET} (an ACL without {@code +config|get}, a managed service), and where it did
     * lately, unless the limiter has just connected: Lettuce sends {@code CONFIG} to the master, as
     * it is not on its list of read-only commands.
     */
    private @Nullable Properties savePoints(RedisConnection connection, boolean connected) {
        if (this.configRefusal != null && !connected
                && System.nanoTime() - this.configRefusedAt < REFUSED_CONFIG_INTERVAL.toNanos()) {
            return null;
        }
        try {
            Properties savePoints = connection.serverCommands().getConfig("save");
            this.configRefusal = null;
            return savePoints;
        }
        catch (RuntimeException ex) {
            FailureKind kind = FailureKind.of(ex);
            boolean noPermission = kind == FailureKind.NOPERM;
            if (!noPermission && kind != FailureKind.OTHER) {
                // Redis did not answer (a timeout, a lost connection) or could not (busy): no refusal
                throw ex;
            }
            this.configRefusedAt = System.nanoTime();
            this.configRefusal = noPermission
                    ? "the Redis user may not run CONFIG GET (grant it +config|get to let the limiter read them)"
                    : "Redis answered CONFIG GET save with: " + FailureKind.messageOf(ex)
                            + " (a managed service may not offer CONFIG GET: see its persistence settings)";
            return null;
        }
    }

    /**
     * One reading of the settings.
     *
     * @param eviction what {@code INFO} says about eviction
     * @param persistence what {@code INFO} and {@code CONFIG GET save} say about persistence
     */
    private record SettingsReading(EvictionReading eviction, PersistenceReading persistence) {
    }

}
