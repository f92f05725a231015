package io.github.limiter.autoconfigure.redis;

import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which Jedis factories lend one {@code Jedis} per connection from a {@code JedisSentinelPool}, the
 * ones that follow a failover late (the start-up says so); on Spring Boot 4.0 every one does, as
 * {@code limiter-consumers/boot4.0} shows.
 */
class JedisThroughSentinelTests {

    private final RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration("mymaster",
            Set.of("127.0.0.1:26379"));

    @Test
    void jedis7sRedisClientOfSpringDataRedis41IsNotSaidToFollowLate() {
        JedisConnectionFactory factory = new JedisConnectionFactory(this.sentinel,
                JedisClientConfiguration.builder().usePooling().build());
        assertThat(LimiterJedisConfiguration.lendsJedisPerConnection(factory)).isFalse();
    }

    @Test
    void oneJedisPerConnectionIsSaidToFollowLate() {
        JedisConnectionFactory factory = new JedisConnectionFactory(this.sentinel,
                JedisClientConfiguration.builder().usePooling().build());
        factory.setUseUnifiedJedis(false);
        assertThat(LimiterJedisConfiguration.lendsJedisPerConnection(factory)).isTrue();
    }

}
