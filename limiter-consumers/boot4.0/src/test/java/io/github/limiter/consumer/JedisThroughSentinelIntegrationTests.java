package io.github.limiter.consumer;

import java.util.UUID;

import io.github.limiter.test.EmbeddedRedisSentinel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one stack of Spring Boot 4.0 that needs 4.1: Jedis through Redis Sentinel. Spring Data Redis
 * 4.0 lends one Jedis per connection from a {@code JedisSentinelPool}, which after a failover lends
 * connections to the old master again (docs/operations.md); the start says so, once.
 */
@ExtendWith(OutputCaptureExtension.class)
class JedisThroughSentinelIntegrationTests {

    @Test
    void saysAtStartThatJedisThroughSentinelFollowsAFailoverLate(CapturedOutput output) {
        try (EmbeddedRedisSentinel redis = EmbeddedRedisSentinel.start(1)) {
            SpringApplication application = new SpringApplication(ConsumerApplication.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                    "--spring.data.redis.client-type=jedis",
                    "--spring.data.redis.sentinel.master=" + EmbeddedRedisSentinel.MASTER,
                    "--spring.data.redis.sentinel.nodes=" + String.join(",", redis.sentinelNodes()),
                    "--limiter.key-prefix=consumer-sentinel-" + UUID.randomUUID() + ":")) {
                assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(JedisConnectionFactory.class);
                assertThat(context.getBean(ReportService.class).generate("erin")).isEqualTo("report for erin");
                assertThat(output.getOut().lines().filter(line -> line.contains(" WARN ")
                        && line.contains("Rate limiting reaches Redis Sentinel through one Jedis per connection")))
                    .singleElement()
                    .satisfies(line -> assertThat(line).contains("JedisSentinelPool")
                        .contains("the old master")
                        .contains("use Lettuce, or Spring Boot 4.1"));
            }
        }
    }

}
