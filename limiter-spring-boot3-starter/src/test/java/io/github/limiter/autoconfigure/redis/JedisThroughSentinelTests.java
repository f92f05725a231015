package io.github.limiter.autoconfigure.redis;

import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot 3.5's Spring Data Redis lends one {@code Jedis} per connection from a
 * {@code JedisSentinelPool} through Sentinel, whatever the factory: the start-up always says that
 * it follows a failover late. (The Boot 4 starter's test of the same name tells Spring Data Redis
 * 4.1's two ways apart and does not run here.)
 */
class JedisThroughSentinelTests {

    @Test
    void everyJedisFactoryIsSaidToFollowLate() {
        JedisConnectionFactory factory = new JedisConnectionFactory(
                new RedisSentinelConfiguration("mymaster", Set.of("127.0.0.1:26379")),
                JedisClientConfiguration.builder().usePooling().build());
        assertThat(LimiterJedisConfiguration.lendsJedisPerConnection(factory)).isTrue();
    }

}
