package io.github.limiter.autoconfigure;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * The limiter's Jedis connection, derived from the application's {@link JedisConnectionFactory}:
 * the same servers (standalone, Sentinel or Cluster) and client settings (TLS socket factory,
 * parameters and host name verifier, client name, pool), with the limiter's own timeouts: Jedis
 * reads with {@code limiter.redis.timeout}, connects with {@code limiter.redis.connect-timeout},
 * and waits at most the timeout for a pooled connection.
 */
final class LimiterJedisConfiguration {

    private LimiterJedisConfiguration() {
    }

    static boolean isJedis(RedisConnectionFactory application) {
        return application instanceof JedisConnectionFactory;
    }

    static OwnConnection connect(RedisConnectionFactory application, LimiterProperties.Redis properties) {
        JedisConnectionFactory jedis = (JedisConnectionFactory) application;
        JedisClientConfiguration client = client(jedis.getClientConfiguration(), properties);
        JedisConnectionFactory commands = started(factory(jedis, client));
        // Subscriptions take their connections from a pool of their own, never the decisions' pool: a
        // subscription that Redis refuses (NOPERM) leaves Jedis's connection out of step with its
        // replies, and back in the decisions' pool it would hand a decision another command's reply.
        // (A pool, not single connections: without one, Spring Data's Jedis ignores Sentinel.)
        JedisConnectionFactory subscriptions = started(factory(jedis, client));
        String description = (jedis.isRedisClusterAware() ? "a Redis Cluster"
                : jedis.isRedisSentinelAware() ? "Redis Sentinel" : "Redis")
                + (jedis.getClientConfiguration().isUseSsl() ? " over TLS" : "") + " with Jedis";
        return new OwnConnection(commands, subscriptions, description, () -> {
            subscriptions.destroy();
            commands.destroy();
        });
    }

    private static JedisConnectionFactory started(JedisConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** A factory to the servers of the application's: Cluster, Sentinel or standalone. */
    private static JedisConnectionFactory factory(JedisConnectionFactory application, JedisClientConfiguration client) {
        RedisClusterConfiguration cluster = application.getClusterConfiguration();
        if (cluster != null) {
            return new JedisConnectionFactory(cluster, client);
        }
        RedisSentinelConfiguration sentinel = application.getSentinelConfiguration();
        if (sentinel != null) {
            return new JedisConnectionFactory(sentinel, client);
        }
        return new JedisConnectionFactory(application.getStandaloneConfiguration(), client);
    }

    static JedisClientConfiguration client(JedisClientConfiguration application, LimiterProperties.Redis properties) {
        JedisClientConfiguration.JedisClientConfigurationBuilder builder = JedisClientConfiguration.builder()
            .connectTimeout(properties.getConnectTimeout())
            .readTimeout(properties.getTimeout())
            .clientName(application.getClientName().map(name -> name + "-limiter").orElse("limiter"));
        if (application.isUseSsl()) {
            JedisClientConfiguration.JedisSslClientConfigurationBuilder ssl = builder.useSsl();
            application.getSslSocketFactory().ifPresent(ssl::sslSocketFactory);
            application.getSslParameters().ifPresent(ssl::sslParameters);
            application.getHostnameVerifier().ifPresent(ssl::hostnameVerifier);
            builder = ssl.and();
        }
        // a call waits for a pooled connection no longer than for Redis itself
        GenericObjectPoolConfig<?> pool = application.getPoolConfig().map(GenericObjectPoolConfig::clone)
            .orElseGet(GenericObjectPoolConfig::new);
        pool.setMaxWait(properties.getTimeout());
        return builder.usePooling().poolConfig(pool).build();
    }

}
