package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.LocalHttp;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a load balancer that probes the application's health sees while the limiter's Redis is
 * down: an instance whose limits all fail open serves as well as any other could, so it stays in
 * service ({@code /actuator/health} 200, the limiter {@code DEGRADED}); one with a limit that fails
 * closed refuses those calls, so it is out ({@code DOWN}, 503). The probes' groups, as Spring Boot
 * advises for external systems, leave the limiter out: liveness and readiness stay 200.
 */
class HealthWhileRedisFailsIntegrationTests {

    @Test
    void anInstanceWhoseLimitsFailOpenStaysInService() {
        try (ConfigurableApplicationContext context = startWithRedisDown(ReadsApp.class)) {
            LocalHttp http = http(context);
            assertThat(http.get("/reads?user=alice").statusCode()).as("a limited call, failing open").isEqualTo(200);
            HttpResponse<String> health = http.get("/actuator/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(JsonPath.<String>read(health.body(), "$.status")).isEqualTo("UP");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.status")).isEqualTo("DEGRADED");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.details.errorKind"))
                .isEqualTo("connection");
            assertThat(JsonPath.<Boolean>read(health.body(), "$.components.limiter.details.limitsFailClosed")).isFalse();
            assertThat(http.get("/actuator/health/limiter").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void anInstanceWithALimitThatFailsClosedIsTakenOutOfService() {
        try (ConfigurableApplicationContext context = startWithRedisDown(LoginsApp.class)) {
            LocalHttp http = http(context);
            assertThat(http.get("/logins?user=alice").statusCode()).as("a limited call, failing closed").isEqualTo(503);
            HttpResponse<String> health = http.get("/actuator/health");
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(JsonPath.<String>read(health.body(), "$.status")).isEqualTo("DOWN");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.status")).isEqualTo("DOWN");
            assertThat(JsonPath.<Boolean>read(health.body(), "$.components.limiter.details.limitsFailClosed")).isTrue();
            assertThat(http.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
        }
    }

    private static ConfigurableApplicationContext startWithRedisDown(Class<?> application) {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        return new SpringApplicationBuilder(application).run("--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.port=" + stopped.port(), "--limiter.key-prefix=health-" + UUID.randomUUID() + ":",
                "--management.endpoint.health.show-details=always", "--management.endpoint.health.probes.enabled=true",
                // only the limiter's health: the application's own Redis health is not this test's
                "--management.health.redis.enabled=false");
    }

    private static LocalHttp http(ConfigurableApplicationContext context) {
        return new LocalHttp(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }

    // no component scan: only the controllers each application imports
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Reads.class)
    static class ReadsApp {

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ Reads.class, Logins.class })
    static class LoginsApp {

    }

    @RestController
    static class Reads {

        @GetMapping("/reads")
        @RateLimit(key = "#user", window = "1m", max = 10)
        public String read(@RequestParam String user) {
            return "read";
        }

    }

    @RestController
    static class Logins {

        @GetMapping("/logins")
        @RateLimit(key = "#user", window = "1m", max = 5, onFailure = OnFailure.DENY)
        public String login(@RequestParam String user) {
            return "logged in";
        }

    }

}
