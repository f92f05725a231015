package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.event.DefaultEventPublisherOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
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

    /**
     * The servers of the application's factory. Boot's factory does not tell a static master/replica
     * set-up from a standalone one, so that comes from what Boot built it from: a
     * {@link RedisStaticMasterReplicaConfiguration} bean or its connection details.
     */
    static RedisConfiguration servers(LettuceConnectionFactory application,
            @Nullable DataRedisConnectionDetails details, @Nullable RedisStaticMasterReplicaConfiguration masterReplica) {
        if (application.getClusterConfiguration() != null) {
            return application.getClusterConfiguration();
        }
        if (application.getSentinelConfiguration() != null) {
            return application.getSentinelConfiguration();
        }
        if (application.getSocketConfiguration() != null) {
            return application.getSocketConfiguration();
        }
        if (masterReplica != null) {
            return masterReplica;
        }
        if (details != null && details.getMasterReplica() != null) {
            return masterReplica(details, details.getMasterReplica());
        }
        return application.getStandaloneConfiguration();
    }

    private static RedisConfiguration masterReplica(DataRedisConnectionDetails details,
            DataRedisConnectionDetails.MasterReplica nodes) {
        DataRedisConnectionDetails.Node first = nodes.getNodes().get(0);
        RedisStaticMasterReplicaConfiguration configuration = new RedisStaticMasterReplicaConfiguration(first.host(),
                first.port());
        nodes.getNodes().stream().skip(1).forEach(node -> configuration.addNode(node.host(), node.port()));
        configuration.setUsername(details.getUsername());
        if (details.getPassword() != null) {
            configuration.setPassword(RedisPassword.of(details.getPassword()));
        }
        return configuration;
    }

    /**
     * The application's client configuration with the limiter's timeouts. Lettuce uses the
     * configuration's command timeout for the connection handshake too, so that one is the connect
     * timeout, while every command expires after the limiter's own timeout.
     */
    static LettuceClientConfiguration client(LettuceClientConfiguration application, boolean cluster,
            ClientResources resources, LimiterProperties.Redis properties) {
        LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
            .commandTimeout(properties.getConnectTimeout())
            .clientOptions(options(application.getClientOptions().orElse(null), cluster, properties))
            .clientResources(resources)
            .clientName(application.getClientName().map(name -> name + "-limiter").orElse("limiter"))
            .shutdownTimeout(application.getShutdownTimeout())
            .shutdownQuietPeriod(application.getShutdownQuietPeriod());
        application.getReadFrom().ifPresent(builder::readFrom);
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
            LimiterProperties.Redis properties) {
        ClientOptions from = (application != null) ? application : ClientOptions.create();
        ClientOptions.Builder builder;
        if (from instanceof ClusterClientOptions clusterOptions) {
            builder = clusterOptions.mutate();
        }
        else {
            builder = cluster ? ClusterClientOptions.builder(from) : from.mutate();
        }
        return builder.autoReconnect(true)
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .requestQueueSize(properties.getRequestQueueSize())
            .timeoutOptions(TimeoutOptions.enabled(properties.getTimeout()))
            .socketOptions(from.getSocketOptions().mutate().connectTimeout(properties.getConnectTimeout()).build())
            .build();
    }

    /**
     * Client resources with the limiter's reconnect delay, sharing the application's threads, timer,
     * event bus, DNS resolution, Netty customizer and tracing. Everything taken from the
     * application's resources is marked shared, so shutting these down leaves those running.
     */
    static ClientResources resources(@Nullable ClientResources application, Duration maxReconnectDelay) {
        DefaultClientResources.Builder builder = DefaultClientResources.builder()
            .reconnectDelay(Delay.exponential(Duration.ZERO, maxReconnectDelay, 2, TimeUnit.MILLISECONDS));
        if (application == null) {
            return builder.build();
        }
        return builder.eventLoopGroupProvider(application.eventLoopGroupProvider())
            .eventExecutorGroup(application.eventExecutorGroup())
            .timer(application.timer())
            .eventBus(application.eventBus())
            .commandLatencyRecorder(application.commandLatencyRecorder())
            // the application's publisher already reports the shared recorder
            .commandLatencyPublisherOptions(DefaultEventPublisherOptions.disabled())
            .socketAddressResolver(application.socketAddressResolver())
            .nettyCustomizer(application.nettyCustomizer())
            .tracing(application.tracing())
            .build();
    }

}
