package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterRedisProperties;
import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;

import io.github.limiter.internal.transport.LettuceTimeouts;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.event.DefaultEventPublisherOptions;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The limiter's Lettuce settings, derived from what the application's {@link LettuceConnectionFactory}
 * and Spring Boot already resolved: the same servers and the same client settings (TLS and its
 * trust material, read-from, credentials, cluster topology refresh, protocol, client resources),
 * changing only what the limiter needs for itself: the command and connect timeouts, a bounded
 * request queue, commands refused at once while disconnected, and a bounded reconnect delay.
 */
final class LimiterLettuceConfiguration {

    private LimiterLettuceConfiguration() {
    }

    static boolean isLettuce(RedisConnectionFactory application) {
        return application instanceof LettuceConnectionFactory;
    }

    /**
     * Opens the limiter's connection: to the servers of the application's factory (see
     * {@link #servers}), with its client settings and the limiter's own timeouts.
     * {@code onPubSubLost} runs whenever a subscription's connection drops, until Lettuce restores it;
     * {@code onReconnected} whenever Lettuce reconnects a command connection that dropped.
     */
    static OwnConnection connect(RedisConnectionFactory application, RedisConfiguration servers,
            LimiterRedisProperties properties, Runnable onPubSubLost, Runnable onReconnected) {
        LettuceConnectionFactory lettuce = (LettuceConnectionFactory) application;
        ClientResources resources = resources(lettuce.getClientConfiguration().getClientResources().orElse(null),
                properties.getMaxReconnectDelay());
        LettuceClientConfiguration client = client(lettuce.getClientConfiguration(), lettuce.isClusterAware(),
                !(servers instanceof RedisSentinelConfiguration), resources, properties);
        LettuceConnectionFactory commands = started(
                (servers instanceof RedisSentinelConfiguration sentinels)
                        ? new SentinelFollowingConnectionFactory(sentinels, client)
                        : new LettuceConnectionFactory(servers, client),
                onPubSubLost, onReconnected);
        // Spring Data has no Pub/Sub over a static master/replica connection; a PUBLISH on the master
        // reaches the subscribers of every replica too
        LettuceConnectionFactory subscriptions = (servers instanceof RedisStaticMasterReplicaConfiguration nodes)
                ? started(new LettuceConnectionFactory(nodes.getNodes().get(0), client), onPubSubLost, onReconnected)
                : commands;
        String library = "Lettuce" + (lettuce.getClientConfiguration().isUseSsl() ? " over TLS" : "");
        return new OwnConnection(commands, subscriptions, servers, library, () -> {
            if (subscriptions != commands) {
                subscriptions.destroy();
            }
            commands.destroy();
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        });
    }

    private static LettuceConnectionFactory started(LettuceConnectionFactory factory, Runnable onPubSubLost,
            Runnable onReconnected) {
        factory.afterPropertiesSet();
        factory.start();
        // A connection that opens after one of the same dropped is a reconnection; connections
        // opened for the first time (a cluster node's, a topology refresh's) are not
        Set<RedisChannelHandler<?, ?>> dropped = Collections
            .synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
        factory.getRequiredNativeClient().addListener(new RedisConnectionStateListener() {

            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection) {
                if (dropped.remove(connection)) {
                    onReconnected.run();
                }
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
                if (connection instanceof StatefulRedisPubSubConnection<?, ?>) {
                    onPubSubLost.run();
                }
                else {
                    dropped.add(connection);
                }
            }

        });
        return factory;
    }

    /**
     * The servers of the application's factory, or {@code null} where the factory does not tell
     * them. Cluster, Sentinel and socket configurations it has getters for. The rest it reports as
     * a standalone configuration: its own, or, when built over another configuration (a static
     * master/replica one), Spring Data's default {@code localhost:6379}, which the limiter must not
     * take for the application's server. So a standalone server counts when it is not that
     * default, or when Spring Boot built the factory (from a standalone server, as it had no
     * master/replica nodes); master/replica nodes come from what Spring Boot built it from, or a
     * {@link RedisStaticMasterReplicaConfiguration} bean of the application's.
     * @param masterReplica the static master/replica nodes the application declared, if any
     * @param builtByBoot whether Spring Boot built the factory, from its connection details
     */
    static @Nullable RedisConfiguration servers(RedisConnectionFactory factory,
            @Nullable RedisStaticMasterReplicaConfiguration masterReplica, boolean builtByBoot) {
        LettuceConnectionFactory application = (LettuceConnectionFactory) factory;
        if (application.getClusterConfiguration() != null) {
            return application.getClusterConfiguration();
        }
        if (application.getSentinelConfiguration() != null) {
            return application.getSentinelConfiguration();
        }
        if (application.getSocketConfiguration() != null) {
            return application.getSocketConfiguration();
        }
        RedisStandaloneConfiguration standalone = application.getStandaloneConfiguration();
        // host and port come from the factory's configuration where it has them, else from the standalone one
        if (!application.getHostName().equals(standalone.getHostName()) || application.getPort() != standalone.getPort()) {
            return null;
        }
        if (!isSpringDataDefault(standalone)) {
            return standalone;
        }
        if (masterReplica != null) {
            return masterReplica;
        }
        return builtByBoot ? standalone : null;
    }

    private static boolean isSpringDataDefault(RedisStandaloneConfiguration standalone) {
        RedisStandaloneConfiguration defaults = new RedisStandaloneConfiguration();
        return standalone.getHostName().equals(defaults.getHostName()) && standalone.getPort() == defaults.getPort();
    }

    /**
     * The application's client configuration with the limiter's timeouts. Lettuce uses the
     * configuration's command timeout for the connection handshake too, so that one is the connect
     * timeout, while every command expires after the limiter's own timeout. Through Sentinel the
     * limiter does not read from replicas ({@code readFrom} false): a plain connection to the
     * master is one that {@link SentinelFollowingConnectionFactory} moves at once after a
     * failover, where Lettuce's master/replica topology would notice it 5 seconds later.
     */
    static LettuceClientConfiguration client(LettuceClientConfiguration application, boolean cluster,
            boolean readFrom, ClientResources resources, LimiterRedisProperties properties) {
        LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
            .commandTimeout(properties.getConnectTimeout())
            .clientOptions(options(application.getClientOptions().orElse(null), cluster, properties))
            .clientResources(resources)
            .clientName(application.getClientName().map(name -> name + "-limiter").orElse("limiter"))
            .shutdownTimeout(application.getShutdownTimeout())
            .shutdownQuietPeriod(application.getShutdownQuietPeriod());
        if (readFrom) {
            application.getReadFrom().ifPresent(builder::readFrom);
        }
        application.getRedisCredentialsProviderFactory().ifPresent(builder::redisCredentialsProviderFactory);
        if (application.isUseSsl()) {
            LettuceClientConfiguration.LettuceSslClientConfigurationBuilder ssl = builder.useSsl()
                .verifyPeer(application.getVerifyMode());
            if (application.isStartTls()) {
                ssl.startTls();
            }
            return ssl.build();
        }
        return builder.build();
    }

    private static ClientOptions options(@Nullable ClientOptions application, boolean cluster,
            LimiterRedisProperties properties) {
        ClientOptions from = (application != null) ? application : ClientOptions.create();
        ClientOptions.Builder builder;
        if (from instanceof ClusterClientOptions clusterOptions) {
            builder = clusterOptions.mutate();
        }
        else {
            builder = cluster ? ClusterClientOptions.builder(from) : from.mutate();
        }
        return builder.autoReconnect(true)
            // also fails the commands written before a disconnect, where Lettuce would send them
            // again after reconnecting: a decision is never counted twice
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .requestQueueSize(properties.getRequestQueueSize())
            // every command expires after the limiter's timeout; a decision's script lives on for
            // the late window, its caller waiting only for the timeout
            .timeoutOptions(LettuceTimeouts.options(properties.getTimeout()))
            .socketOptions(from.getSocketOptions().mutate().connectTimeout(properties.getConnectTimeout()).build())
            .build();
    }

    /**
     * Client resources with the limiter's reconnect delay, sharing the application's threads, timer,
     * event bus, DNS resolution, Netty customizer and tracing. Everything taken from the
     * application's resources is marked shared, so shutting these down leaves those running.
     * Commands in flight when a connection drops fail ({@link InFlightCommandsOnDisconnect}).
     */
    static ClientResources resources(@Nullable ClientResources application, Duration maxReconnectDelay) {
        DefaultClientResources.Builder builder = DefaultClientResources.builder()
            .reconnectDelay(Delay.exponential(Duration.ZERO, maxReconnectDelay, 2, TimeUnit.MILLISECONDS));
        if (application == null) {
            return builder.nettyCustomizer(new InFlightCommandsOnDisconnect()).build();
        }
        return builder.eventLoopGroupProvider(application.eventLoopGroupProvider())
            .eventExecutorGroup(application.eventExecutorGroup())
            .timer(application.timer())
            .eventBus(application.eventBus())
            .commandLatencyRecorder(application.commandLatencyRecorder())
            // the application's publisher already reports the shared recorder
            .commandLatencyPublisherOptions(DefaultEventPublisherOptions.disabled())
            .socketAddressResolver(application.socketAddressResolver())
            .nettyCustomizer(new InFlightCommandsOnDisconnect(application.nettyCustomizer()))
            .tracing(application.tracing())
            .build();
    }

}
