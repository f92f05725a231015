package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterRedisProperties;
import java.lang.reflect.Method;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The limiter's Jedis connection, derived from the application's {@link JedisConnectionFactory}:
 * the same servers (standalone, Sentinel or Cluster) and client settings (TLS socket factory,
 * parameters and host name verifier, client name, pool), with the limiter's own timeouts: Jedis
 * reads with {@code limiter.redis.timeout}, connects with {@code limiter.redis.connect-timeout},
 * and waits at most the timeout for a pooled connection.
 */
final class LimiterJedisConfiguration {

    private static final Log logger = LogFactory.getLog(LimiterJedisConfiguration.class);

    private LimiterJedisConfiguration() {
    }

    static boolean isJedis(RedisConnectionFactory application) {
        return application instanceof JedisConnectionFactory;
    }

    static OwnConnection connect(RedisConnectionFactory application, LimiterRedisProperties properties) {
        JedisConnectionFactory jedis = (JedisConnectionFactory) application;
        JedisClientConfiguration client = client(jedis.getClientConfiguration(), properties);
        RedisConfiguration servers = servers(jedis);
        JedisConnectionFactory commands = started(factory(servers, client));
        if (servers instanceof RedisSentinelConfiguration && lendsJedisPerConnection(commands)) {
            logger.warn("Rate limiting reaches Redis Sentinel through one Jedis per connection from a "
                    + "JedisSentinelPool (Spring Data Redis before 4.1, or a Jedis without RedisClient), which after "
                    + "a failover lends connections to the old master again: until Sentinel demotes it (about 10 s), "
                    + "decisions are split between two masters, calls pass past their limits and bans made then are "
                    + "lost; use Lettuce, or Spring Boot 4.1 with the Jedis it manages");
        }
        // Subscriptions take their connections from a pool of their own, never the decisions' pool: a
        // subscription that Redis refuses (NOPERM) leaves Jedis's connection out of step with its
        // replies, and back in the decisions' pool it would hand a decision another command's reply.
        // (A pool, not single connections: without one, Spring Data's Jedis ignores Sentinel.)
        JedisConnectionFactory subscriptions = started(factory(servers, client));
        String library = "Jedis" + (jedis.getClientConfiguration().isUseSsl() ? " over TLS" : "");
        return new OwnConnection(commands, subscriptions, servers, library, () -> {
            subscriptions.destroy();
            commands.destroy();
        });
    }

    /**
     * Whether the factory lends one {@code Jedis} per connection, from a {@code JedisSentinelPool}
     * through Sentinel, rather than Jedis 7's {@code RedisClient}: always before Spring Data Redis
     * 4.1, and there when Jedis has no {@code RedisClient}. The
     * pool's check that a connection goes to the current master reads an address all its
     * connections share, which the switch updates, so connections opened before a failover are
     * lent out again.
     * @param factory the limiter's factory
     * @return whether it lends one {@code Jedis} per connection
     */
    static boolean lendsJedisPerConnection(JedisConnectionFactory factory) {
        Method unified = ClassUtils.getMethodIfAvailable(JedisConnectionFactory.class, "isUseUnifiedJedis");
        return unified == null || !Boolean.TRUE.equals(ReflectionUtils.invokeMethod(unified, factory));
    }

    private static JedisConnectionFactory started(JedisConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * The servers of the application's factory: Cluster, Sentinel or standalone, the only ones a
     * Jedis factory can be built over, each of which it tells.
     */
    static RedisConfiguration servers(JedisConnectionFactory application) {
        RedisClusterConfiguration cluster = application.getClusterConfiguration();
        if (cluster != null) {
            return cluster;
        }
        RedisSentinelConfiguration sentinel = application.getSentinelConfiguration();
        if (sentinel != null) {
            return sentinel;
        }
        RedisStandaloneConfiguration standalone = application.getStandaloneConfiguration();
        return (standalone != null) ? standalone
                : new RedisStandaloneConfiguration(application.getHostName(), application.getPort());
    }

    private static JedisConnectionFactory factory(RedisConfiguration servers, JedisClientConfiguration client) {
        if (servers instanceof RedisClusterConfiguration cluster) {
            return new JedisConnectionFactory(cluster, client);
        }
        if (servers instanceof RedisSentinelConfiguration sentinel) {
            return new JedisConnectionFactory(sentinel, client);
        }
        return new JedisConnectionFactory((RedisStandaloneConfiguration) servers, client);
    }

    static JedisClientConfiguration client(JedisClientConfiguration application, LimiterRedisProperties properties) {
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
        // a call waits for a pooled connection no longer than for Redis itself; a lambda, not
        // GenericObjectPoolConfig::clone, which names a raw type where Spring Boot 3.5's Spring Data
        // Redis hands out a raw GenericObjectPoolConfig
        GenericObjectPoolConfig<?> pool = application.getPoolConfig().map((config) -> config.clone())
            .orElseGet(GenericObjectPoolConfig::new);
        pool.setMaxWait(properties.getTimeout());
        return builder.usePooling().poolConfig(pool).build();
    }

}
