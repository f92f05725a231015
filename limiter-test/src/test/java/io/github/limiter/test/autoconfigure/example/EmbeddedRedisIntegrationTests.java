package io.github.limiter.test.autoconfigure.example;

import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded Redis takes the place of the Redis an application configures, and the reset deletes
 * the keys under the application's own key prefix. Written for every Spring Boot generation: it
 * reads where the application's connection factory points, not Boot's connection details, whose
 * type differs between Boot 3 and Boot 4 (limiter-test-boot3 runs it too).
 */
@SpringBootTest(properties = { "spring.data.redis.port=1", "limiter.key-prefix=quotes-app:" })
@AutoConfigureLimiterRedis
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedRedisIntegrationTests {

    @Autowired
    RedisConnectionFactory connectionFactory;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    QuoteService quotes;

    @Autowired
    RateLimitTester rateLimits;

    @Test
    @Order(1)
    void applicationReachesTheEmbeddedRedisRatherThanTheConfiguredPort() {
        assertThat(this.connectionFactory).isInstanceOfSatisfying(LettuceConnectionFactory.class, (lettuce) -> {
            assertThat(lettuce.getHostName()).isEqualTo("127.0.0.1");
            assertThat(lettuce.getPort()).isNotEqualTo(1);
        });
        assertThat(this.redis.execute((RedisCallback<String>) RedisConnection::ping)).isEqualTo("PONG");
    }

    @Test
    @Order(2)
    void limiterWritesUnderTheApplicationsPrefix() {
        this.rateLimits.exhaust(QuoteService.QUOTES, "alice");

        assertThat(this.redis.keys("quotes-app:*")).contains("quotes-app:{quotes:alice}");
    }

    @Test
    @Order(3)
    void keysUnderTheApplicationsPrefixAreGoneAfterTheTest() {
        assertThat(this.redis.keys("quotes-app:*")).isEmpty();
        assertThat(this.quotes.quote("alice")).isNotEmpty();
    }

}
