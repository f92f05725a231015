package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterRedisProperties;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.autoconfigure.internal.EvictionReport;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.util.ClassUtils;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The limiter's own connection, to the same Redis servers as the application's connection factory,
 * with the application's client settings and the limiter's own timeouts: Lettuce (see
 * {@link LimiterLettuceConfiguration}) or Jedis (see {@link LimiterJedisConfiguration}), whichever
 * the application uses; each library is touched only when it is on the classpath, so either may be
 * missing. With another kind of factory, or a Lettuce factory that does not tell its servers, the
 * application's is used as it is: never a server the application does not use.
 *
 * <p>The connection counts as open once Redis has answered a {@code PING} and the limiter's own
 * start check (its version, its scripts loaded): until then the limiter's commands fail at once,
 * and limited calls follow their on-failure setting, rather than wait for a slow or unreachable
 * Redis. The first attempt runs during the start, waiting at most the connect timeout for the
 * connection and the command timeout for each command; the next ones in the background. Once open,
 * the client keeps reconnecting by itself.
 */
final class LimiterRedisConnection implements DisposableBean {

    private static final Log logger = LogFactory.getLog(LimiterRedisConnection.class);

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            LimiterRedisConnection.class.getClassLoader());

    private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis",
            LimiterRedisConnection.class.getClassLoader());

    private final RedisConnectionFactory connectionFactory;

    private final RedisConnectionFactory subscriptionFactory;

    private final @Nullable Runnable closer;

    private final LimiterRedisProperties properties;

    private final String servers;

    private final @Nullable String user;

    private final List<Runnable> pubSubLostListeners = new CopyOnWriteArrayList<>();

    private final List<Runnable> reconnectListeners = new CopyOnWriteArrayList<>();

    private volatile boolean open;

    // the thread running the start check, whose commands pass before the connection counts as open
    private volatile @Nullable Thread opening;

    private volatile String failure = "not tried yet";

    private volatile boolean closed;

    private final TaskScheduler scheduler;

    /**
     * Opens the limiter's connection.
     * @param application the application's connection factory
     * @param masterReplica the static master/replica servers Spring Boot built the application's
     * factory with, or the application declared, if any: a factory cannot tell them from a
     * standalone server
     * @param builtByBoot whether Spring Boot built the application's factory
     * @param properties the limiter's settings
     * @param scheduler where connecting goes on while Redis cannot be reached
     */
    LimiterRedisConnection(RedisConnectionFactory application,
            @Nullable RedisStaticMasterReplicaConfiguration masterReplica, boolean builtByBoot,
            LimiterRedisProperties properties, TaskScheduler scheduler) {
        this.properties = properties;
        this.scheduler = scheduler;
        OwnConnection own = own(application, masterReplica, builtByBoot, properties);
        if (own != null) {
            this.servers = own.describeServers();
            this.user = own.user();
            logger.info("Rate limiting uses a connection of its own to " + this.servers
                    + ((this.user != null) ? " as user '" + this.user + "'" : "") + " (" + own.client()
                    + "), with a timeout of " + properties.getTimeout().toMillis() + " ms per command and "
                    + properties.getConnectTimeout().toMillis() + " ms to connect");
            this.connectionFactory = own.commands();
            this.subscriptionFactory = own.subscriptions();
            this.closer = own.closer();
        }
        else {
            String factory = application.getClass().getSimpleName();
            this.servers = "the Redis of the application's " + factory;
            this.user = null;
            logger.info("Rate limiting shares the application's " + factory + ", with its timeouts: "
                    + (isLettuce(application) ? "the factory does not tell which servers it reaches (built over "
                            + "static master/replica nodes, it reports Spring Data's default server instead); declare "
                            + "the nodes as a RedisStaticMasterReplicaConfiguration bean for a connection of the "
                            + "limiter's own, with its timeouts and a subscription to unbans and resets from other "
                            + "instances"
                            : "limiter.redis.timeout applies with Lettuce and Jedis only"));
            this.connectionFactory = application;
            this.subscriptionFactory = application;
            this.closer = null;
        }
    }

    private @Nullable OwnConnection own(RedisConnectionFactory application,
            @Nullable RedisStaticMasterReplicaConfiguration masterReplica, boolean builtByBoot,
            LimiterRedisProperties properties) {
        if (isLettuce(application)) {
            RedisConfiguration servers = LimiterLettuceConfiguration.servers(application, masterReplica,
                    builtByBoot);
            return (servers != null) ? LimiterLettuceConfiguration.connect(application, servers, properties,
                    this::pubSubLost, this::reconnected) : null;
        }
        if (JEDIS_PRESENT && LimiterJedisConfiguration.isJedis(application)) {
            return LimiterJedisConfiguration.connect(application, properties);
        }
        return null;
    }

    private static boolean isLettuce(RedisConnectionFactory application) {
        return LETTUCE_PRESENT && LimiterLettuceConfiguration.isLettuce(application);
    }

    /** A template whose commands fail at once until the connection is open. */
    StringRedisTemplate template() {
        return new ConnectedTemplate(this);
    }

    RedisConnectionFactory connectionFactory() {
        return this.connectionFactory;
    }

    /** The connection to subscribe on: the limiter's own, or one node of a static master/replica set. */
    RedisConnectionFactory subscriptionConnectionFactory() {
        return this.subscriptionFactory;
    }

    /**
     * Where the limiter looks for Redis, for messages: such as {@code Redis at 10.0.0.5:6379},
     * {@code Redis master 'mymaster' of sentinels s1:26379, s2:26379}, {@code Redis Cluster nodes
     * ...}, {@code Redis master/replica nodes ...}, {@code Redis on unix socket ...}, or
     * {@code the Redis of the application's ...} when it shares the application's factory.
     */
    String servers() {
        return this.servers;
    }

    /** The Redis user the limiter signs in as, if the configuration names one. */
    @Nullable String user() {
        return this.user;
    }

    /** Why the connection is not open yet: the last attempt's failure. */
    String failure() {
        return this.failure;
    }

    /** Whether the connection is open: Redis answered, and the start check passed. */
    boolean isOpen() {
        return this.open;
    }

    /** Runs the listener whenever a subscription's connection is lost, until it is restored. */
    void onPubSubConnectionLost(Runnable listener) {
        this.pubSubLostListeners.add(listener);
    }

    /** Tells the listeners that a subscription's connection was lost. */
    void pubSubLost() {
        this.pubSubLostListeners.forEach(Runnable::run);
    }

    /**
     * Runs the listener, on the limiter's scheduler, each time the client reconnects a command
     * connection once this connection is open: Redis may have restarted, or a failover moved the
     * connection. Lettuce tells; Jedis, which opens connections as it needs them, does not.
     */
    void onReconnect(Runnable listener) {
        this.reconnectListeners.add(listener);
    }

    /** Tells the listeners, off the client's thread, that a command connection was reconnected. */
    void reconnected() {
        if (!this.open || this.closed) {
            return;
        }
        for (Runnable listener : this.reconnectListeners) {
            try {
                this.scheduler.schedule(listener, Instant.now());
            }
            catch (TaskRejectedException ex) {
                // the scheduler stops with the application: nothing is left to tell
            }
        }
    }

    /**
     * Opens the connection: once here, then in the background, on the reconnect back-off, until it
     * opens. {@code check} runs as the last step of each attempt, its commands let through: a
     * failure to reach Redis (a lost connection, a timeout) fails the attempt; any other failure
     * propagates here, so that it fails the start, and is logged when found in the background,
     * where the connection then counts as open.
     * @return whether the connection opened here
     */
    boolean connect(Runnable check) {
        if (tryOpen(check)) {
            return true;
        }
        BackOffExecution execution = reconnectBackOff(this.properties).start();
        connectAfter(execution, check);
        return false;
    }

    /** Waits that double from 50 ms up to {@code limiter.redis.max-reconnect-delay}. */
    static ExponentialBackOff reconnectBackOff(LimiterRedisProperties properties) {
        ExponentialBackOff backOff = new ExponentialBackOff(50, 2);
        backOff.setMaxInterval(properties.getMaxReconnectDelay().toMillis());
        return backOff;
    }

    private void connectAfter(BackOffExecution backOff, Runnable check) {
        try {
            this.scheduler.schedule(() -> connectLater(backOff, check),
                    Instant.now().plusMillis(backOff.nextBackOff()));
        }
        catch (TaskRejectedException ex) {
            // the scheduler stops with the application: nothing is left to connect for
        }
    }

    private void connectLater(BackOffExecution backOff, Runnable check) {
        try {
            if (!tryOpen(check)) {
                if (!this.closed) {
                    connectAfter(backOff, check);
                }
                return;
            }
        }
        catch (RuntimeException ex) {
            if (this.closed) {
                return;
            }
            // open before the line that says so: a call made once it is read must not find the
            // connection "not connected yet", a failure that would outlive the configuration error
            opened();
            if (RedisRateLimiter.Failure.of(ex).misconfigured()
                    || ex instanceof EvictionReport.Refused) {
                // a configuration error, which the message explains whole: health reports it too
                logger.error("Rate limiting connected to " + this.servers + ", but cannot use it: " + ex.getMessage());
            }
            else {
                logger.error("Rate limiting connected to " + this.servers + ", but cannot use it", ex);
            }
        }
    }

    private boolean tryOpen(Runnable check) {
        if (this.closed) {
            return false;
        }
        try (RedisConnection connection = this.connectionFactory.getConnection()) {
            connection.ping();
        }
        catch (RuntimeException ex) {
            this.failure = ConnectFailure.describe(ex);
            return false;
        }
        this.opening = Thread.currentThread();
        try {
            check.run();
        }
        catch (RedisConnectionFailureException | QueryTimeoutException ex) {
            this.failure = ConnectFailure.describe(ex);
            return false;
        }
        finally {
            this.opening = null;
        }
        opened();
        return true;
    }

    private void opened() {
        this.open = true;
    }

    @Override
    public void destroy() {
        this.closed = true;
        if (this.closer != null) {
            this.closer.run();
        }
    }

    /**
     * Every template operation runs through this one method, so this is where a command fails fast
     * until the connection is open, instead of opening it, or waiting for Redis, on the caller's
     * thread.
     */
    private static final class ConnectedTemplate extends StringRedisTemplate {

        private final LimiterRedisConnection connection;

        ConnectedTemplate(LimiterRedisConnection connection) {
            super(connection.connectionFactory);
            this.connection = connection;
        }

        @Override
        public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
            if (!this.connection.open && this.connection.opening != Thread.currentThread()) {
                throw new RedisConnectionFailureException("Rate limiting has not connected to "
                        + this.connection.servers + " yet (" + this.connection.failure + ")");
            }
            return super.execute(action, exposeConnection, pipeline);
        }

    }

}
