package io.github.limiter.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;

/**
 * What Spring Boot built the application's connection factory from that the factory itself does
 * not tell: a static master/replica set-up. Spring Boot 3 has no property for one, only a
 * {@link RedisStaticMasterReplicaConfiguration} bean of the application's.
 *
 * <p>Spring Boot 3's; each Spring Boot generation's starter has its own.
 */
final class BootRedisServers {

    private BootRedisServers() {
    }

    static @Nullable RedisStaticMasterReplicaConfiguration masterReplica(
            @Nullable RedisStaticMasterReplicaConfiguration bean, BeanFactory beanFactory) {
        return bean;
    }

}
