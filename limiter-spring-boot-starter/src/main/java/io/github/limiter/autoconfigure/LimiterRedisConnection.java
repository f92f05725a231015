package io.github.limiter.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The limiter's own Lettuce connection, to the same Redis servers as the application's
 * {@link LettuceConnectionFactory}, with the application's client settings and the limiter's own
 * timeouts (see {@link LimiterLettuceConfiguration}): a slow or absent Redis costs a limited call at
 * most the limiter's timeout. With another client library, the application's factory is used as it
 * is.
 *
 * <p>The first connection is opened off the callers' threads: until it is open, the limiter's
 * commands fail at once (and limited calls follow their on-failure setting) rather than wait for a
 * slow or unreachable Redis. Once open, Lettuce keeps reconnecting it by itself.
 */
final class LimiterRedisConnection implements DisposableBean {

    private static final Log logger = LogFactory.getLog(LimiterRedisConnection.class);

    private final RedisConnectionFactory connectionFactory;

    // Spring Data has no Pub/Sub over a static master/replica connection: subscribe to one node
    private final @Nullable LettuceConnectionFactory subscriptionFactory;

    private final @Nullable ClientResources resources;

    private final LimiterProperties.Redis properties;

    private final List<Runnable> pubSubLostListeners = new CopyOnWriteArrayList<>();

    private volatile boolean connected;

    private volatile @Nullable ScheduledExecutorService connector;

    LimiterRedisConnection(RedisConnectionFactory application, @Nullable DataRedisConnectionDetails details,
            @Nullable RedisStaticMasterReplicaConfiguration masterReplica, LimiterProperties.Redis properties) {
        this.properties = properties;
        if (application instanceof LettuceConnectionFactory lettuce) {
            RedisConfiguration servers = LimiterLettuceConfiguration.servers(lettuce, details, masterReplica);
            this.resources = LimiterLettuceConfiguration.resources(
                    lettuce.getClientConfiguration().getClientResources().orElse(null), properties.getMaxReconnectDelay());
            LettuceClientConfiguration client = LimiterLettuceConfiguration.client(lettuce.getClientConfiguration(),
                    lettuce.isClusterAware(), this.resources, properties);
            LettuceConnectionFactory limiter = started(new LettuceConnectionFactory(servers, client));
            // a PUBLISH on the master reaches the subscribers of every replica too
            this.subscriptionFactory = (servers instanceof RedisStaticMasterReplicaConfiguration nodes)
                    ? started(new LettuceConnectionFactory(nodes.getNodes().get(0), client)) : null;
            logger.info("Rate limiting uses a connection of its own to " + servers.getClass().getSimpleName()
                    + (lettuce.getClientConfiguration().isUseSsl() ? " over TLS" : "") + ", with a timeout of "
                    + properties.getTimeout().toMillis() + " ms per command and "
                    + properties.getConnectTimeout().toMillis() + " ms to connect");
            this.connectionFactory = limiter;
        }
        else {
            logger.info("Rate limiting shares the application's " + application.getClass().getSimpleName()
                    + "; limiter.redis.timeout applies with Lettuce only");
            this.connectionFactory = application;
            this.subscriptionFactory = null;
            this.resources = null;
            this.connected = true;
        }
    }

    private LettuceConnectionFactory started(LettuceConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        factory.getRequiredNativeClient().addListener(new PubSubLossListener());
        return factory;
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
        return (this.subscriptionFactory != null) ? this.subscriptionFactory : this.connectionFactory;
    }

    /** Whether the limiter's first connection to Redis has been opened. */
    boolean isConnected() {
        return this.connected;
    }

    /** Runs the listener whenever a subscription's connection is lost, until Lettuce restores it. */
    void onPubSubConnectionLost(Runnable listener) {
        this.pubSubLostListeners.add(listener);
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
        if (this.subscriptionFactory != null) {
            this.subscriptionFactory.destroy();
        }
        if (this.resources != null) {
            ((LettuceConnectionFactory) this.connectionFactory).destroy();
            this.resources.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** Tells the subscriptions of the limiter's own client that their connection dropped. */
    private final class PubSubLossListener implements RedisConnectionStateListener {

        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
            if (connection instanceof StatefulRedisPubSubConnection<?, ?>) {
                LimiterRedisConnection.this.pubSubLostListeners.forEach(Runnable::run);
            }
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
