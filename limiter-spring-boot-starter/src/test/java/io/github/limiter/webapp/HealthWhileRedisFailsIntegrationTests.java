package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import com.jayway.jsonpath.JsonPath;
import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.LocalHttp;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a load balancer that probes the application's health sees while the limiter's Redis is
 * down: an instance whose limits all fail open (or decide in its memory, on-failure local: 200 up
 * to max, then 429 with the local decision's headers) serves as well as any other could, so it
 * stays in service ({@code /actuator/health} 200, the limiter {@code DEGRADED}); one with a limit
 * that fails closed refuses those calls, so it is out ({@code DOWN}, 503). The probes' groups, as Spring Boot
 * advises for external systems, leave the limiter out: liveness and readiness stay 200. Each health
 * request is answered within a second, whether Redis was down at start or stops while the instance
 * runs. Spring Boot's own Redis indicator, left on, would take the first instance out too: the start
 * says so, naming the property that turns it off; kept, it waits no longer than
 * {@code spring.data.redis.timeout}.
 */
@ExtendWith(OutputCaptureExtension.class)
class HealthWhileRedisFailsIntegrationTests {

    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(1);

    private static final String ADVICE = "Spring Boot's Redis health indicator takes /actuator/health DOWN";

    @Test
    void anInstanceWhoseLimitsFailOpenStaysInService(CapturedOutput output) {
        try (ConfigurableApplicationContext context = startWithRedisDown(ReadsApp.class,
                "--management.health.redis.enabled=false")) {
            LocalHttp http = http(context);
            assertThat(http.get("/reads?user=alice").statusCode()).as("a limited call, failing open").isEqualTo(200);
            // a limit decided in the instance's memory: max 2, then 429 as from Redis, with its headers
            HttpResponse<String> first = http.get("/quotes?user=alice");
            assertThat(first.statusCode()).as("on-failure local").isEqualTo(200);
            assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("1");
            assertThat(http.get("/quotes?user=alice").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = http.get("/quotes?user=alice");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
            assertThat(refused.body()).contains("\"limitId\":\"quotes\"");
            HttpResponse<String> health = timed(() -> http.get("/actuator/health"));
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(JsonPath.<String>read(health.body(), "$.status")).isEqualTo("UP");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.status")).isEqualTo("DEGRADED");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.details.errorKind"))
                .isEqualTo("connection");
            assertThat(JsonPath.<Boolean>read(health.body(), "$.components.limiter.details.limitsFailClosed")).isFalse();
            assertThat(http.get("/actuator/health/limiter").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
            assertThat(output).doesNotContain(ADVICE);
        }
    }

    @Test
    void aRedisThatStopsWhileTheInstanceRunsLeavesItInServiceAnsweringWithinASecond() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        try (ConfigurableApplicationContext context = start(ReadsApp.class, redis.port(),
                "--management.health.redis.enabled=false")) {
            LocalHttp http = http(context);
            assertThat(http.get("/reads?user=alice").statusCode()).isEqualTo(200);
            assertThat(JsonPath.<String>read(timed(() -> http.get("/actuator/health")).body(),
                    "$.components.limiter.status")).isEqualTo("UP");
            redis.kill();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            HttpResponse<String> health = timed(() -> http.get("/actuator/health"));
            while (!"DEGRADED".equals(JsonPath.read(health.body(), "$.components.limiter.status"))) {
                assertThat(System.nanoTime() - deadline).as("the limiter's health turns DEGRADED").isNegative();
                health = timed(() -> http.get("/actuator/health"));
            }
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(http.get("/reads?user=alice").statusCode()).as("a limited call, failing open").isEqualTo(200);
        }
        finally {
            redis.close();
        }
    }

    @Test
    void springBootsIndicatorKeptWaitsNoLongerThanTheApplicationsRedisTimeout() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        try (ConfigurableApplicationContext context = start(ReadsApp.class, redis.port(),
                "--spring.data.redis.timeout=500ms")) {
            LocalHttp http = http(context);
            assertThat(timed(() -> http.get("/actuator/health")).statusCode()).isEqualTo(200);
            redis.kill();
            HttpResponse<String> health = timed(() -> http.get("/actuator/health"));
            assertThat(health.statusCode()).as("Spring Boot's redis component, as docs/operations.md says")
                .isEqualTo(503);
            assertThat(JsonPath.<String>read(health.body(), "$.components.redis.status")).isEqualTo("DOWN");
        }
        finally {
            redis.close();
        }
    }

    @Test
    void theStartSaysThatSpringBootsRedisIndicatorWouldTakeTheInstanceOut(CapturedOutput output) {
        try (ConfigurableApplicationContext context = startWithRedisDown(ReadsApp.class)) {
            assertThat(output.getOut().lines().filter((line) -> line.contains(ADVICE)))
                .singleElement(InstanceOfAssertFactories.STRING)
                .contains("management.health.redis.enabled=false", "spring.data.redis.timeout");
            HttpResponse<String> health = timed(() -> http(context).get("/actuator/health"));
            assertThat(health.statusCode()).as("what the line warns of").isEqualTo(503);
            assertThat(JsonPath.<String>read(health.body(), "$.components.redis.status")).isEqualTo("DOWN");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.status")).isEqualTo("DEGRADED");
        }
    }

    @Test
    void anInstanceWithALimitThatFailsClosedIsTakenOutOfService(CapturedOutput output) {
        try (ConfigurableApplicationContext context = startWithRedisDown(LoginsApp.class,
                "--management.health.redis.enabled=false")) {
            LocalHttp http = http(context);
            assertThat(http.get("/logins?user=alice").statusCode()).as("a limited call, failing closed").isEqualTo(503);
            HttpResponse<String> health = timed(() -> http.get("/actuator/health"));
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(JsonPath.<String>read(health.body(), "$.status")).isEqualTo("DOWN");
            assertThat(JsonPath.<String>read(health.body(), "$.components.limiter.status")).isEqualTo("DOWN");
            assertThat(JsonPath.<Boolean>read(health.body(), "$.components.limiter.details.limitsFailClosed")).isTrue();
            assertThat(http.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
            assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
        }
    }

    private static ConfigurableApplicationContext startWithRedisDown(Class<?> application, String... more) {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        return start(application, stopped.port(), more);
    }

    private static ConfigurableApplicationContext start(Class<?> application, int redisPort, String... more) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.port=" + redisPort, "--limiter.key-prefix=health-" + UUID.randomUUID() + ":",
                "--management.endpoint.health.show-details=always", "--management.endpoint.health.probes.enabled=true"));
        arguments.addAll(List.of(more));
        return new SpringApplicationBuilder(application).run(arguments.toArray(String[]::new));
    }

    /** The answer to a health request, which must come within a second. */
    private static HttpResponse<String> timed(Supplier<HttpResponse<String>> request) {
        long start = System.nanoTime();
        HttpResponse<String> response = request.get();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered within").isLessThan(ANSWERED_WITHIN);
        return response;
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

        @GetMapping("/quotes")
        @RateLimit(name = "quotes", key = "#user", window = "1m", max = 2, onFailure = OnFailure.LOCAL)
        public String quote(@RequestParam String user) {
            return "quote";
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
