package io.github.limiter.test.autoconfigure.example;

import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded Redis takes the place of the Redis an application configures.
 */
@SpringBootTest(properties = "spring.data.redis.port=1")
@AutoConfigureLimiterRedis
class EmbeddedRedisIntegrationTests {

    @Autowired
    DataRedisConnectionDetails connectionDetails;

    @Autowired
    StringRedisTemplate redis;

    @Test
    void applicationReachesTheEmbeddedRedisRatherThanTheConfiguredPort() {
        assertThat(this.connectionDetails.getStandalone().getHost()).isEqualTo("127.0.0.1");
        assertThat(this.connectionDetails.getStandalone().getPort()).isNotEqualTo(1);
        assertThat(this.redis.execute((RedisCallback<String>) RedisConnection::ping)).isEqualTo("PONG");
    }

}
