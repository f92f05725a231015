package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring MVC handlers that return a {@code CompletableFuture} or a {@code Mono} are decided without
 * blocking, on another thread than the request's; their responses carry the same rate-limit
 * headers as those of handlers returning a plain value, allowed or refused.
 */
@WithRedis
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = AsyncHandlersIntegrationTests.AsyncApp.class)
class AsyncHandlersIntegrationTests {

    private static final String PREFIX = "async-mvc-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private AsyncController controller;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void aHandlerReturningACompletableFutureGetsTheHeadersOfItsDecisions() {
        headersOfEachDecision("/future", "futures");
    }

    @Test
    void aHandlerReturningAMonoGetsTheHeadersOfItsDecisions() {
        headersOfEachDecision("/mono", "monos");
    }

    @Test
    void aThreadThatIsNoRequestsGetsNoHeadersAndLosesNone() throws Exception {
        // decided outside any request: nothing to tell, and the next request is unaffected
        assertThat(this.controller.future("nobody").get()).isEqualTo("future for nobody");
        HttpResponse<String> first = get("/future?user=nobody");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("1");
    }

    private void headersOfEachDecision(String path, String limit) {
        String user = "u" + UUID.randomUUID().toString().substring(0, 8);
        int bodiesBefore = this.controller.bodies();
        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> allowed = get(path + "?user=" + user);
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.body()).isEqualTo(path.substring(1) + " for " + user);
            assertThat(allowed.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
            assertThat(allowed.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(remaining));
            assertThat(allowed.headers().firstValue("RateLimit-Policy")).hasValue("\"" + limit + "\";q=3;w=60");
            String state = "\"" + limit + "\";r=" + remaining + ";t=";
            assertThat(allowed.headers().firstValue("RateLimit")).hasValueSatisfying(
                    (field) -> assertThat(field).startsWith(state));
        }
        HttpResponse<String> refused = get(path + "?user=" + user);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
        assertThat(this.controller.bodies() - bodiesBefore).as("bodies run").isEqualTo(3);
    }

    private HttpResponse<String> get(String path) {
        return new LocalHttp(this.port).get(path);
    }

    @SpringBootApplication
    @Import(AsyncController.class)
    static class AsyncApp {

    }

    @RestController
    static class AsyncController {

        private final AtomicInteger bodies = new AtomicInteger();

        // a method, since the test holds the proxy, whose fields are not the controller's
        public int bodies() {
            return this.bodies.get();
        }

        @GetMapping("/future")
        @RateLimit(name = "futures", key = "#user", window = "60s", max = 3)
        public CompletableFuture<String> future(@RequestParam String user) {
            this.bodies.incrementAndGet();
            return CompletableFuture.completedFuture("future for " + user);
        }

        @GetMapping("/mono")
        @RateLimit(name = "monos", key = "#user", window = "60s", max = 3)
        public Mono<String> mono(@RequestParam String user) {
            return Mono.fromSupplier(() -> {
                this.bodies.incrementAndGet();
                return "mono for " + user;
            });
        }

    }

}
