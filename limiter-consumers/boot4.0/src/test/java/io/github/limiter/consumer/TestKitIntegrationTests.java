package io.github.limiter.consumer;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The test kit on Spring Boot 4.0, as a team on it would test its own limits: the application's
 * Redis is the kit's embedded one, whatever {@code spring.data.redis.port} says (here a port nothing
 * answers on), {@link RateLimitTester} puts keys in the state a test needs, and each test starts
 * with no count or ban left by the one before.
 */
@SpringBootTest(properties = "spring.data.redis.port=1")
@AutoConfigureLimiterRedis
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestKitIntegrationTests {

    @Autowired
    DataRedisConnectionDetails connectionDetails;

    @Autowired
    LettuceConnectionFactory connectionFactory;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    GreetingController greetings;

    @Autowired
    ReportService reports;

    @Autowired
    RateLimitTester rateLimits;

    @Test
    @Order(1)
    void runsOnSpringBoot40AgainstTheEmbeddedRedis() {
        assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
        assertThat(this.connectionDetails.getStandalone().getHost()).isEqualTo("127.0.0.1");
        assertThat(this.connectionDetails.getStandalone().getPort()).isNotEqualTo(1);
        assertThat(this.connectionFactory.getPort()).isEqualTo(this.connectionDetails.getStandalone().getPort());
        assertThat(this.redis.execute((RedisCallback<String>) RedisConnection::ping)).isEqualTo("PONG");
    }

    @Test
    @Order(2)
    void exhaustedUserIsRefusedAndBannedOnTheNextReport() {
        this.rateLimits.exhaust("reports", "carol");

        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.reports.generate("carol"))
            .satisfies(refused -> assertThat(refused.isBanned()).as("the reports policy bans").isTrue());
        assertThat(this.rateLimits.isBanned("reports", "carol")).isTrue();
        assertThat(this.reports.generate("dave")).isEqualTo("report for dave");
    }

    @Test
    @Order(3)
    void fourthGreetingInAMinuteIsRefused() {
        for (int call = 0; call < 3; call++) {
            assertThat(this.greetings.hello("alice")).isEqualTo("Hello, alice");
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.greetings.hello("alice"));
    }

    @Test
    @Order(4)
    void eachTestStartsWithNoCountOrBanLeftByTheOthers() {
        // alice's greetings were used up by the test before, carol was banned from reports two before
        for (int call = 0; call < 3; call++) {
            assertThat(this.greetings.hello("alice")).isEqualTo("Hello, alice");
        }
        assertThat(this.reports.generate("carol")).isEqualTo("report for carol");
    }

}
