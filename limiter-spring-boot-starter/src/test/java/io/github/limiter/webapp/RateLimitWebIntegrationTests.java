package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.UUID;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = RateLimitWebIntegrationTests.WebApp.class)
class RateLimitWebIntegrationTests {

    private static final String PREFIX = "web-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void answersACallOverTheLimitWith429RetryAfterAndProblemDetail() throws Exception {
        for (int i = 1; i <= 3; i++) {
            assertThat(get("/limited?user=alice").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> rejected = get("/limited?user=alice");
        assertThat(rejected.statusCode()).isEqualTo(429);
        long retryAfter = Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(1L, 60L);
        assertThat(rejected.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(rejected.body()).contains("\"status\":429")
            .contains("\"type\":\"https://limiter.github.io/problems/rate-limit-exceeded\"")
            .contains("\"title\":\"Rate limit exceeded\"")
            .contains("\"instance\":\"/limited\"")
            .contains("\"limitId\":\"LimitedController.limited\"")
            .contains("\"limit\":3")
            .contains("\"retryAfter\":" + retryAfter)
            .contains("\"banned\":false");
        assertThat(get("/limited?user=bob").statusCode()).isEqualTo(200);
    }

    @Test
    void answersABannedKeyWithTheBannedTypeAndTheLimitThatBannedIt() throws Exception {
        assertThat(get("/banning?user=dave").statusCode()).isEqualTo(200);
        HttpResponse<String> banned = get("/banning?user=dave");
        assertThat(banned.statusCode()).isEqualTo(429);
        assertThat(banned.headers().firstValue("Retry-After")).hasValue("900");
        assertThat(banned.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(banned.body()).contains("\"status\":429")
            .contains("\"type\":\"https://limiter.github.io/problems/banned\"")
            .contains("\"title\":\"Banned for exceeding a rate limit\"")
            .contains("\"limitId\":\"bans\"")
            .contains("\"limit\":1")
            .contains("\"retryAfter\":900")
            .contains("\"banned\":true");
    }

    @Test
    void limitsAServiceCalledByAController() throws Exception {
        assertThat(get("/via-service?user=carol").statusCode()).isEqualTo(200);
        HttpResponse<String> rejected = get("/via-service?user=carol");
        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(rejected.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void leavesTheExceptionToTheControllersOwnHandler() throws Exception {
        assertThat(get("/own-handler").statusCode()).isEqualTo(200);
        HttpResponse<String> rejected = get("/own-handler");
        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(rejected.body()).isEqualTo("busy, limit own-handler");
    }

    @Test
    void leavesTheExceptionToTheApplicationsAdvice() throws Exception {
        assertThat(get("/advised").statusCode()).isEqualTo(200);
        HttpResponse<String> rejected = get("/advised");
        assertThat(rejected.statusCode()).isEqualTo(420);
        assertThat(rejected.body()).isEqualTo("enhance your calm");
    }

    private HttpResponse<String> get(String path) {
        return new LocalHttp(this.port).get(path);
    }

    // Outside the starter's packages, as a user's application is. Boot's test scanning skips
    // classes nested in tests, so the app lists them.
    @SpringBootApplication
    @Import({ LimitedController.class, Greetings.class, OwnHandlerController.class, AdvisedController.class,
            CalmAdvice.class })
    static class WebApp {

    }

    @RestController
    static class LimitedController {

        private final Greetings greetings;

        LimitedController(Greetings greetings) {
            this.greetings = greetings;
        }

        @GetMapping("/limited")
        @RateLimit(key = "#user", window = "60s", max = 3)
        public String limited(@RequestParam String user) {
            return "hello " + user;
        }

        @GetMapping("/banning")
        @RateLimit(name = "bans", key = "#user", window = "60s", max = 1, banFor = "15m")
        public String banning(@RequestParam String user) {
            return "hello " + user;
        }

        @GetMapping("/via-service")
        public String viaService(@RequestParam String user) {
            return this.greetings.greet(user);
        }

    }

    @Service
    static class Greetings {

        @RateLimit(key = "#user", window = "1m", max = 1)
        public String greet(String user) {
            return "hi " + user;
        }

    }

    @RestController
    static class OwnHandlerController {

        @GetMapping("/own-handler")
        @RateLimit(name = "own-handler", window = "1m", max = 1)
        public String call() {
            return "ok";
        }

        @ExceptionHandler(RateLimitExceededException.class)
        ResponseEntity<String> busy(RateLimitExceededException ex) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("busy, limit " + ex.getLimitId());
        }

    }

    @RestController
    static class AdvisedController {

        @GetMapping("/advised")
        @RateLimit(window = "1m", max = 1)
        public String call() {
            return "ok";
        }

    }

    @RestControllerAdvice(assignableTypes = AdvisedController.class)
    static class CalmAdvice {

        @ExceptionHandler(RateLimitExceededException.class)
        ResponseEntity<String> calm() {
            return ResponseEntity.status(420).body("enhance your calm");
        }

    }

}
