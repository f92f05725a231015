package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.github.limiter.Algorithm;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every answer of a limited endpoint carries each rate-limit header once, allowed or refused, on
 * Spring MVC and Spring WebFlux, whatever the handler returns: a client that joins repeated headers
 * must not read {@code 0, 0}. Two answers cannot carry them, as docs/web.md says: an allowed
 * {@code Flux} that Spring MVC streams, and a handler that blocks on a WebFlux event loop; they
 * carry none, never two. Counted as the server sent them, each value of a repeated header apart.
 * Run on Spring Boot 4 and, by the Boot 3.5 starter's build, on Spring Boot 3.5.
 */
@WithRedis
class RateLimitHeadersOnceIntegrationTests {

    private static final List<String> HANDLERS = List.of("/plain", "/future", "/mono", "/flux");

    private static final List<String> RATE_LIMIT_HEADERS = List.of("RateLimit-Policy", "RateLimit",
            "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void eachHeaderIsSentOnceOnAnAllowedAndOnARefusedAnswer(WebApplicationType type) {
        try (ConfigurableApplicationContext app = start(type)) {
            for (String handler : HANDLERS) {
                // where the stack cannot write them (docs/web.md): at most once, never twice
                boolean written = !handler.equals((type == WebApplicationType.SERVLET) ? "/flux" : "/plain");
                String path = handler + "?user=u-" + UUID.randomUUID();
                HttpResponse<String> allowed = get(app, path);
                assertThat(allowed.statusCode()).as(handler).isEqualTo(200);
                assertOnce(handler + " allowed", allowed, RATE_LIMIT_HEADERS, written);
                HttpResponse<String> refused = get(app, path);
                assertThat(refused.statusCode()).as(handler).isEqualTo(429);
                // the refusal's answer writes the X-RateLimit fields where no decision could
                assertOnce(handler + " refused", refused, RATE_LIMIT_HEADERS.subList(0, 2), written);
                assertOnce(handler + " refused", refused, RATE_LIMIT_HEADERS.subList(2, 5), true);
                assertOnce(handler + " refused", refused, List.of("Retry-After"), true);
                assertThat(refused.headers().firstValue("X-RateLimit-Limit")).as(handler).hasValue("1");
                if (written) {
                    assertThat(allowed.headers().firstValue("X-RateLimit-Remaining")).as(handler).hasValue("0");
                }
            }
        }
    }

    private static void assertOnce(String answer, HttpResponse<String> response, List<String> headers,
            boolean written) {
        for (String header : headers) {
            assertThat(response.headers().allValues(header)).as("%s: %s in %s", answer, header, response.headers().map())
                .hasSizeBetween(written ? 1 : 0, 1);
        }
    }

    private static ConfigurableApplicationContext start(WebApplicationType type) {
        return new SpringApplicationBuilder(HeadersApp.class).web(type)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(),
                    "--limiter.key-prefix=headers-once-" + UUID.randomUUID() + ":");
    }

    /** A client of its own for each request: a connection of its own. */
    private static HttpResponse<String> get(ConfigurableApplicationContext app, String path) {
        int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0"));
        return new LocalHttp(port).get(path);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Handlers.class)
    static class HeadersApp {

    }

    // sliding logs, which no window edge splits; public methods: @RateLimit applies to public methods only
    @RestController
    static class Handlers {

        @GetMapping("/plain")
        @RateLimit(name = "once.plain", key = "#user", window = "1m", max = 1, algorithm = Algorithm.SLIDING_LOG)
        public String plain(@RequestParam String user) {
            return "plain";
        }

        @GetMapping("/future")
        @RateLimit(name = "once.future", key = "#user", window = "1m", max = 1, algorithm = Algorithm.SLIDING_LOG)
        public CompletableFuture<String> future(@RequestParam String user) {
            return CompletableFuture.supplyAsync(() -> "future");
        }

        @GetMapping("/mono")
        @RateLimit(name = "once.mono", key = "#user", window = "1m", max = 1, algorithm = Algorithm.SLIDING_LOG)
        public Mono<String> mono(@RequestParam String user) {
            return Mono.fromSupplier(() -> "mono");
        }

        @GetMapping("/flux")
        @RateLimit(name = "once.flux", key = "#user", window = "1m", max = 1, algorithm = Algorithm.SLIDING_LOG)
        public Flux<String> flux(@RequestParam String user) {
            return Flux.defer(() -> Flux.just("flux"));
        }

    }

}
