package io.github.limiter.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The limiter's own Lettuce connection, to the same Redis (standalone, Sentinel or Cluster) as the
 * application's {@link LettuceConnectionFactory}, with the limiter's timeout for commands and for
 * connecting, a bounded request queue, and commands refused at once while disconnected: a slow or
 * absent Redis costs a limited call at most the timeout, never Lettuce's default 60 seconds. With
 * another client library, the application's factory is used as it is.
 */
final class LimiterRedisConnection implements DisposableBean {

    private static final Log logger = LogFactory.getLog(LimiterRedisConnection.class);

    private final RedisConnectionFactory connectionFactory;

    private final boolean own;

    LimiterRedisConnection(RedisConnectionFactory application, LimiterProperties.Redis properties) {
        if (application instanceof LettuceConnectionFactory lettuce) {
            LettuceConnectionFactory limiter = new LettuceConnectionFactory(configuration(lettuce),
                    clientConfiguration(lettuce, properties));
            limiter.afterPropertiesSet();
            limiter.start();
            this.connectionFactory = limiter;
            this.own = true;
        }
        else {
            logger.info("Rate limiting shares the application's " + application.getClass().getSimpleName()
                    + "; limiter.redis.timeout applies with Lettuce only");
            this.connectionFactory = application;
            this.own = false;
        }
    }

    StringRedisTemplate template() {
        return new StringRedisTemplate(this.connectionFactory);
    }

    RedisConnectionFactory connectionFactory() {
        return this.connectionFactory;
    }

    @Override
    public void destroy() {
        if (this.own) {
            ((LettuceConnectionFactory) this.connectionFactory).destroy();
        }
    }

    private static RedisConfiguration configuration(LettuceConnectionFactory application) {
        if (application.getClusterConfiguration() != null) {
            return application.getClusterConfiguration();
        }
        if (application.getSentinelConfiguration() != null) {
            return application.getSentinelConfiguration();
        }
        return application.getStandaloneConfiguration();
    }

    private static LettuceClientConfiguration clientConfiguration(LettuceConnectionFactory application,
            LimiterProperties.Redis properties) {
        Duration timeout = properties.getTimeout();
        LettuceClientConfiguration from = application.getClientConfiguration();
        SocketOptions socket = SocketOptions.builder().connectTimeout(timeout).build();
        ClientOptions options = (application.getClusterConfiguration() != null)
                ? ClusterClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .requestQueueSize(properties.getRequestQueueSize())
                    .timeoutOptions(TimeoutOptions.enabled(timeout))
                    .socketOptions(socket)
                    .build()
                : ClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .requestQueueSize(properties.getRequestQueueSize())
                    .timeoutOptions(TimeoutOptions.enabled(timeout))
                    .socketOptions(socket)
                    .build();
        LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
            .commandTimeout(timeout)
            .clientOptions(options)
            .clientName("limiter");
        from.getClientResources().ifPresent(builder::clientResources);
        if (from.isUseSsl()) {
            LettuceClientConfiguration.LettuceSslClientConfigurationBuilder ssl = builder.useSsl();
            if (!from.isVerifyPeer()) {
                ssl.disablePeerVerification();
            }
            if (from.isStartTls()) {
                ssl.startTls();
            }
        }
        return builder.build();
    }

}
