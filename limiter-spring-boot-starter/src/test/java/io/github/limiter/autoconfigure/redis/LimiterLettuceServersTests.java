package io.github.limiter.autoconfigure.redis;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which servers the limiter takes from the application's Lettuce factory, and which it cannot
 * read: a factory over static master/replica nodes reports Spring Data's default server, which is
 * taken only where Spring Boot built the factory from a standalone server.
 */
class LimiterLettuceServersTests {

    private final RedisStaticMasterReplicaConfiguration nodes = nodes();

    @Test
    void takesClusterSentinelAndSocketConfigurationsFromTheFactory() {
        RedisClusterConfiguration cluster = new RedisClusterConfiguration(List.of("10.0.0.1:7000", "10.0.0.2:7000"));
        RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration("mymaster", Set.of("s1:26379"));
        RedisSocketConfiguration socket = new RedisSocketConfiguration("/run/redis.sock");
        assertThat(LimiterLettuceConfiguration.servers(new LettuceConnectionFactory(cluster), null, false))
            .isSameAs(cluster);
        assertThat(LimiterLettuceConfiguration.servers(new LettuceConnectionFactory(sentinel), null, false))
            .isSameAs(sentinel);
        assertThat(LimiterLettuceConfiguration.servers(new LettuceConnectionFactory(socket), null, false))
            .isSameAs(socket);
    }

    @Test
    void takesAStandaloneServerOtherThanTheDefaultFromAnyFactory() {
        RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("redis.internal", 6380);
        assertThat(LimiterLettuceConfiguration.servers(new LettuceConnectionFactory(standalone), this.nodes, false))
            .isSameAs(standalone);
    }

    @Test
    void readsNoServersFromAFactoryTheApplicationBuiltOverNodesItDeclaredNowhereElse() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(this.nodes);
        assertThat(factory.getHostName() + ":" + factory.getPort()).as("what the factory reports")
            .isEqualTo("localhost:6379");
        assertThat(LimiterLettuceConfiguration.servers(factory, null, false)).isNull();
        assertThat(LimiterLettuceConfiguration.servers(factory, this.nodes, false)).isSameAs(this.nodes);
    }

    @Test
    void takesTheDefaultServerOnlyFromAFactorySpringBootBuilt() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration());
        assertThat(LimiterLettuceConfiguration.servers(factory, null, false)).isNull();
        assertThat(LimiterLettuceConfiguration.servers(factory, null, true))
            .isSameAs(factory.getStandaloneConfiguration());
    }

    @Test
    void tellsAFactorySpringBootBuiltFromOneOfTheApplications() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class));
        runner.run(context -> assertThat(BootRedisServers
            .builtTheFactory(context.getBean(RedisConnectionFactory.class), context.getBeanFactory())).isTrue());
        runner.withBean(LettuceConnectionFactory.class, () -> new LettuceConnectionFactory(this.nodes))
            .run(context -> assertThat(BootRedisServers
                .builtTheFactory(context.getBean(RedisConnectionFactory.class), context.getBeanFactory())).isFalse());
    }

    private static RedisStaticMasterReplicaConfiguration nodes() {
        RedisStaticMasterReplicaConfiguration nodes = new RedisStaticMasterReplicaConfiguration("10.0.0.2", 6379);
        nodes.addNode("10.0.0.1", 6379);
        return nodes;
    }

}
