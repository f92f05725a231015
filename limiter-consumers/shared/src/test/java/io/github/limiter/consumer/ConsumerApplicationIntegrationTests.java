package io.github.limiter.consumer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The whole story on one stack, over real HTTP and a real Redis: the stack (Spring Boot generation
 * and Redis client) is the module's, named by the system properties {@code consumer.boot} and
 * {@code consumer.client} its build sets.
 */
@WithRedis
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsumerApplicationIntegrationTests {

    private static final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private Environment environment;

    @Autowired
    private ReportService reports;

    @Autowired
    private TierEvents events;

    @Autowired
    private RateLimitAdmin rateLimits;

    @Autowired
    private RedisConnectionFactory connectionFactory;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, "consumer-" + UUID.randomUUID() + ":");
        // a decision slower than the default 100 ms lets its call through uncounted, and the first
        // decisions on a loaded build machine can be that slow
        registry.add("limiter.redis.timeout", () -> "2s");
    }

    @Test
    void runsOnTheStackOfItsModule() {
        assertThat(SpringBootVersion.getVersion()).startsWith(System.getProperty("consumer.boot"));
        String client = System.getProperty("consumer.client");
        assertThat(this.connectionFactory.getClass().getSimpleName()).startsWithIgnoringCase(client);
        if (client.equals("jedis")) {
            assertThat(ClassUtils.isPresent("io.lettuce.core.RedisClient", null)).as("Lettuce on the classpath")
                .isFalse();
        }
    }

    @Test
    void answersTheFourthGreetingWith429RetryAfterAndAProblemDetail() {
        // the window is a minute of Redis's clock: start where it has room for the calls
        FixedWindows.awaitRoom(this.connectionFactory, Duration.ofMinutes(1), Duration.ofSeconds(10));
        for (int call = 0; call < 3; call++) {
            assertThat(get("/hello/alice").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> refused = get("/hello/alice");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After").map(Long::parseLong)).hasValueSatisfying(
                seconds -> assertThat(seconds).isBetween(1L, 60L));
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(refused.body()).contains("\"status\":429")
            .contains("\"type\":\"https://limiter.github.io/problems/rate-limit-exceeded\"")
            .contains("\"limitId\":\"greetings\"");
        assertThat(get("/hello/bob").statusCode()).as("another user").isEqualTo(200);
    }

    @Test
    void appliesThePolicyOfApplicationYmlWithItsAlertAndBan() {
        FixedWindows.awaitRoom(this.connectionFactory, Duration.ofMinutes(1), Duration.ofSeconds(10));
        assertThat(this.reports.generate("carol")).isEqualTo("report for carol");
        assertThat(this.reports.generate("carol")).isEqualTo("report for carol");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.reports.generate("carol"))
            .satisfies(refusal -> assertThat(refusal.isBanned()).isTrue());
        assertThat(this.rateLimits.banTimeLeft("reports", "carol")).isGreaterThan(Duration.ofMinutes(9));
        assertThat(this.events.alerts()).singleElement().satisfies(alert -> {
            assertThat(alert.key()).isEqualTo("carol");
            assertThat(alert.count()).isEqualTo(2);
        });
        assertThat(this.events.bans()).singleElement()
            .satisfies(ban -> assertThat(ban.banDuration()).isEqualTo(Duration.ofMinutes(10)));
    }

    @Test
    void reportsHealthMetricsAndLimitsThroughActuator() {
        get("/hello/dave");
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"limiter\":{").contains("\"invalidations\":");
        HttpResponse<String> decisions = get("/actuator/metrics/limiter.decisions");
        assertThat(decisions.statusCode()).isEqualTo(200);
        assertThat(decisions.body()).contains("\"limiter.decisions\"").contains("\"outcome\"");
        HttpResponse<String> limits = get("/actuator/ratelimits");
        assertThat(limits.statusCode()).isEqualTo(200);
        assertThat(limits.body()).contains("\"limitId\":\"greetings\"").contains("\"limitId\":\"reports\"");
    }

    private HttpResponse<String> get(String path) {
        URI uri = URI.create("http://127.0.0.1:" + this.environment.getProperty("local.server.port") + path);
        try {
            return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

}
