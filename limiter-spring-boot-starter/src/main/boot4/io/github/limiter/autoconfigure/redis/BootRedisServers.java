package io.github.limiter.autoconfigure.redis;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;

/**
 * What Spring Boot built the application's connection factory from that the factory itself does
 * not tell: whether it built the factory at all, and a static master/replica set-up, from a
 * {@link RedisStaticMasterReplicaConfiguration} bean (which Boot prefers) or its connection
 * details, as Boot resolves them.
 *
 * <p>Spring Boot 4's; each Spring Boot generation's starter has its own.
 */
final class BootRedisServers {

    private static final String CONNECTION_CONFIGURATIONS = "org.springframework.boot.data.redis.autoconfigure";

    private BootRedisServers() {
    }

    /** Whether Spring Boot's Redis auto-configuration built the factory, from its connection details. */
    static boolean builtTheFactory(RedisConnectionFactory factory, BeanFactory beanFactory) {
        return FactoryOrigin.madeIn(factory, beanFactory, CONNECTION_CONFIGURATIONS);
    }

    /**
     * The static master/replica nodes: the application's bean, or, when Spring Boot built the
     * factory, its connection details' nodes (they say nothing of a factory the application built).
     */
    static @Nullable RedisStaticMasterReplicaConfiguration masterReplica(
            @Nullable RedisStaticMasterReplicaConfiguration bean, BeanFactory beanFactory, boolean builtByBoot) {
        if (bean != null || !builtByBoot) {
            return bean;
        }
        DataRedisConnectionDetails details = beanFactory.getBeanProvider(DataRedisConnectionDetails.class)
            .getIfAvailable();
        DataRedisConnectionDetails.MasterReplica masterReplica = (details != null) ? details.getMasterReplica() : null;
        if (masterReplica == null || masterReplica.getNodes().isEmpty()) {
            return null;
        }
        DataRedisConnectionDetails.Node first = masterReplica.getNodes().get(0);
        RedisStaticMasterReplicaConfiguration configuration = new RedisStaticMasterReplicaConfiguration(first.host(),
                first.port());
        masterReplica.getNodes().stream().skip(1).forEach(node -> configuration.addNode(node.host(), node.port()));
        configuration.setUsername(details.getUsername());
        if (details.getPassword() != null) {
            configuration.setPassword(RedisPassword.of(details.getPassword()));
        }
        return configuration;
    }

}
