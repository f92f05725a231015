package io.github.limiter.autoconfigure.redis;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;

/**
 * What Spring Boot built the application's connection factory from that the factory itself does
 * not tell: whether it built the factory at all, and a static master/replica set-up. Spring Boot 3
 * has no property for one, only a {@link RedisStaticMasterReplicaConfiguration} bean of the
 * application's.
 *
 * <p>Spring Boot 3's; each Spring Boot generation's starter has its own.
 */
final class BootRedisServers {

    private static final String CONNECTION_CONFIGURATIONS = "org.springframework.boot.autoconfigure.data.redis";

    private BootRedisServers() {
    }

    /** Whether Spring Boot's Redis auto-configuration built the factory, from its connection details. */
    static boolean builtTheFactory(RedisConnectionFactory factory, BeanFactory beanFactory) {
        return FactoryOrigin.madeIn(factory, beanFactory, CONNECTION_CONFIGURATIONS);
    }

    /** The static master/replica nodes: the application's bean, if any. */
    static @Nullable RedisStaticMasterReplicaConfiguration masterReplica(
            @Nullable RedisStaticMasterReplicaConfiguration bean, BeanFactory beanFactory, boolean builtByBoot) {
        return bean;
    }

}
