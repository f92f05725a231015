package io.github.limiter.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.limiter.redis.RedisPermissionException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The limiter's own connection, to the same Redis servers as the application's connection factory,
 * with the application's client settings and the limiter's own timeouts: Lettuce (see
 * {@link LimiterLettuceConfiguration}) or Jedis (see {@link LimiterJedisConfiguration}), whichever
 * the application uses; each library is touched only when it is on the classpath, so either may be
 * missing. With another kind of factory, the application's is used as it is.
 *
 * <p>The first connection is opened off the callers' threads: until it is open, the limiter's
 * commands fail at once (and limited calls follow their on-failure setting) rather than wait for a
 * slow or unreachable Redis. Once open, the client keeps reconnecting by itself.
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

    private final LimiterProperties.Redis properties;

    private final List<Runnable> pubSubLostListeners = new CopyOnWriteArrayList<>();

    private volatile boolean connected;

    private volatile @Nullable ScheduledExecutorService connector;

    /**
     * Opens the limiter's connection.
     * @param application the application's connection factory
     * @param masterReplica the static master/replica servers Spring Boot built the application's
     * factory with, if any: a factory cannot tell them from a standalone server
     * @param properties the limiter's settings
     */
    LimiterRedisConnection(RedisConnectionFactory application,
            @Nullable RedisStaticMasterReplicaConfiguration masterReplica, LimiterProperties.Redis properties) {
        this.properties = properties;
        OwnConnection own = own(application, masterReplica, properties);
        if (own != null) {
            logger.info("Rate limiting uses a connection of its own to " + own.description() + ", with a timeout of "
                    + properties.getTimeout().toMillis() + " ms per command and "
                    + properties.getConnectTimeout().toMillis() + " ms to connect");
            this.connectionFactory = own.commands();
            this.subscriptionFactory = own.subscriptions();
            this.closer = own.closer();
        }
        else {
            logger.info("Rate limiting shares the application's " + application.getClass().getSimpleName()
                    + "; limiter.redis.timeout applies with Lettuce and Jedis only");
            this.connectionFactory = application;
            this.subscriptionFactory = application;
            this.closer = null;
            this.connected = true;
        }
    }

    private @Nullable OwnConnection own(RedisConnectionFactory application,
            @Nullable RedisStaticMasterReplicaConfiguration masterReplica, LimiterProperties.Redis properties) {
        if (LETTUCE_PRESENT && LimiterLettuceConfiguration.isLettuce(application)) {
            return LimiterLettuceConfiguration.connect(application, masterReplica, properties, this::pubSubLost);
        }
        if (JEDIS_PRESENT && LimiterJedisConfiguration.isJedis(application)) {
            return LimiterJedisConfiguration.connect(application, properties);
        }
        return null;
    }

    /** A template whose commands fail at once until the first connection is open. */
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

    /** Runs the listener whenever a subscription's connection is lost, until it is restored. */
    void onPubSubConnectionLost(Runnable listener) {
        this.pubSubLostListeners.add(listener);
    }

    /** Tells the listeners that a subscription's connection was lost. */
    void pubSubLost() {
        this.pubSubLostListeners.forEach(Runnable::run);
    }

    /**
     * Opens the first connection: once here, waiting at most the connect timeout, then in the
     * background, on the reconnect back-off, until it opens. Runs {@code onConnected} once it is
     * open: here, so that its failure fails the start, or on the background thread.
     * @return whether the connection opened here
     */
    boolean connect(Runnable onConnected) {
        if (tryConnect()) {
            onConnected.run();
            return true;
        }
        ScheduledExecutorService connector = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "limiter-connect");
            thread.setDaemon(true);
            return thread;
        });
        this.connector = connector;
        BackOffExecution execution = reconnectBackOff(this.properties).start();
        connector.schedule(() -> connectLater(connector, execution, onConnected), execution.nextBackOff(),
                TimeUnit.MILLISECONDS);
        return false;
    }

    /** Waits that double from 50 ms up to {@code limiter.redis.max-reconnect-delay}. */
    static ExponentialBackOff reconnectBackOff(LimiterProperties.Redis properties) {
        ExponentialBackOff backOff = new ExponentialBackOff(50, 2);
        backOff.setMaxInterval(properties.getMaxReconnectDelay().toMillis());
        return backOff;
    }

    private void connectLater(ScheduledExecutorService connector, BackOffExecution backOff, Runnable onConnected) {
        if (!tryConnect()) {
            connector.schedule(() -> connectLater(connector, backOff, onConnected), backOff.nextBackOff(),
                    TimeUnit.MILLISECONDS);
            return;
        }
        connector.shutdown();
        try {
            onConnected.run();
        }
        catch (RedisPermissionException ex) {
            // a configuration error, which the message explains whole: health reports it too
            logger.error("Rate limiting connected to Redis, but cannot use it: " + ex.getMessage());
        }
        catch (RuntimeException ex) {
            logger.error("Rate limiting connected to Redis, but cannot use it", ex);
        }
    }

    private boolean tryConnect() {
        try (RedisConnection connection = this.connectionFactory.getConnection()) {
            connection.ping();
            this.connected = true;
            return true;
        }
        catch (RuntimeException ex) {
            return false;
        }
    }

    @Override
    public void destroy() {
        ScheduledExecutorService connector = this.connector;
        if (connector != null) {
            connector.shutdownNow();
        }
        if (this.closer != null) {
            this.closer.run();
        }
    }

    /**
     * Every template operation runs through this one method, so this is where a command fails fast
     * until the first connection is open, instead of opening it on the caller's thread.
     */
    private static final class ConnectedTemplate extends StringRedisTemplate {

        private final LimiterRedisConnection connection;

        ConnectedTemplate(LimiterRedisConnection connection) {
            super(connection.connectionFactory);
            this.connection = connection;
        }

        @Override
        public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
            if (!this.connection.connected) {
                throw new RedisConnectionFailureException("Rate limiting has not connected to Redis yet");
            }
            return super.execute(action, exposeConnection, pipeline);
        }

    }

}
