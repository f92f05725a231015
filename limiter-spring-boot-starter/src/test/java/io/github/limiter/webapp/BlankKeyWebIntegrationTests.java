package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import com.jayway.jsonpath.JsonPath;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
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
 * A key a client leaves blank ({@code ?user=}, {@code ?user=%20}, or no {@code user} at all) is the
 * client's mistake: with {@code limiter.blank-key=reject} (the default) it is answered 400 with a
 * problem detail naming the limit, in Spring MVC and Spring WebFlux, whatever the handler returns,
 * and the handler does not run; with {@code skip}, the limit is left out and the handler answers.
 * A key expression that fails is the application's mistake: 500, with a problem detail naming the
 * limit but not the expression, which one log line names, once.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class BlankKeyWebIntegrationTests {

    private static final List<String> HANDLERS = List.of("/plain", "/future", "/mono", "/flux");

    private static final List<String> BLANK_QUERIES = List.of("?user=", "?user=%20", "");

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aBlankKeyIsAnswered400WithAProblemDetailAndTheHandlerDoesNotRun(WebApplicationType type) {
        try (ConfigurableApplicationContext app = start(type, "reject")) {
            BlankKeyHandlers handlers = app.getBean(BlankKeyHandlers.class);
            for (String handler : HANDLERS) {
                for (String query : BLANK_QUERIES) {
                    HttpResponse<String> answer = get(app, handler + query);
                    assertThat(answer.statusCode()).as(handler + query).isEqualTo(400);
                    assertThat(answer.headers().firstValue("Content-Type")).as(handler + query)
                        .hasValue("application/problem+json");
                    assertThat(answer.headers().firstValue("Retry-After")).as(handler + query).isEmpty();
                    assertThat(answer.body()).as(handler + query)
                        .contains("\"type\":\"https://limiter.github.io/problems/blank-key\"",
                                "\"title\":\"Rate limit key missing\"", "\"status\":400",
                                "\"limitId\":\"blank-keys" + handler.replace('/', '.') + "\"")
                        .doesNotContain("#user");
                }
            }
            // as docs/web.md shows it, whatever order the stack's JSON writes the fields in
            Map<String, Object> problem = JsonPath.read(get(app, "/mono?user=").body(), "$");
            assertThat(problem).isEqualTo(Map.of("detail", "The request lacks the value rate limit 'blank-keys.mono' "
                    + "counts calls by.", "instance", "/mono", "status", 400, "title", "Rate limit key missing", "type",
                    "https://limiter.github.io/problems/blank-key", "limitId", "blank-keys.mono"));
            assertThat(handlers.bodies()).as("handler bodies run").isZero();
            // a key given is counted as ever
            HttpResponse<String> counted = get(app, "/mono?user=alice");
            assertThat(counted.statusCode()).isEqualTo(200);
            assertThat(counted.headers().firstValue("X-RateLimit-Remaining")).hasValue("4");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void withBlankKeySkipTheLimitIsLeftOutAndTheHandlerAnswers(WebApplicationType type) {
        try (ConfigurableApplicationContext app = start(type, "skip")) {
            BlankKeyHandlers handlers = app.getBean(BlankKeyHandlers.class);
            for (String handler : HANDLERS) {
                HttpResponse<String> answer = get(app, handler + "?user=");
                assertThat(answer.statusCode()).as(handler).isEqualTo(200);
                assertThat(answer.body()).as(handler).contains("for nobody");
                assertThat(answer.headers().firstValue("X-RateLimit-Remaining")).as(handler).isEmpty();
            }
            assertThat(handlers.bodies()).isEqualTo(HANDLERS.size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aKeyExpressionThatFailsIsAnswered500NamingTheLimitAndLoggedOnce(WebApplicationType type,
            CapturedOutput output) {
        try (ConfigurableApplicationContext app = start(type, "reject")) {
            BlankKeyHandlers handlers = app.getBean(BlankKeyHandlers.class);
            for (String handler : List.of("/initials", "/initials-mono")) {
                for (int call = 0; call < 3; call++) {
                    // substring(3) of a two-letter name throws inside the expression
                    HttpResponse<String> answer = get(app, handler + "?user=al");
                    assertThat(answer.statusCode()).as(handler).isEqualTo(500);
                    assertThat(answer.headers().firstValue("Content-Type")).as(handler)
                        .hasValue("application/problem+json");
                    assertThat(answer.body()).as(handler)
                        .contains("\"type\":\"https://limiter.github.io/problems/expression-failed\"",
                                "\"title\":\"Rate limit expression failed\"", "\"status\":500",
                                "\"limitId\":\"initials" + handler.substring("/initials".length()).replace('-', '.')
                                        + "\"", "could not evaluate its key")
                        .doesNotContain("substring");
                }
                assertThat(get(app, handler + "?user=alice").statusCode()).as("a key that evaluates").isEqualTo(200);
            }
            assertThat(handlers.bodies()).as("handler bodies run").isEqualTo(2);
            // as docs/web.md shows it, whatever order the stack's JSON writes the fields in
            Map<String, Object> problem = JsonPath.read(get(app, "/initials?user=al").body(), "$");
            assertThat(problem).isEqualTo(Map.of("detail", "Rate limit 'initials' could not evaluate its key for this "
                    + "request.", "instance", "/initials", "status", 500, "title", "Rate limit expression failed", "type",
                    "https://limiter.github.io/problems/expression-failed", "limitId", "initials"));
            assertThat(output.getOut().lines().filter((line) -> line.contains(" ERROR ")
                    && line.contains("could not evaluate its key")))
                .as("one line per limit")
                .hasSize(2)
                .allSatisfy((line) -> assertThat(line).contains("of BlankKeyHandlers.initials",
                        "'#user.substring(3)'", "begin 3, end 2, length 2"));
        }
    }

    private static ConfigurableApplicationContext start(WebApplicationType type, String blankKey) {
        return new SpringApplicationBuilder(BlankKeyApp.class).web(type)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(),
                    "--limiter.key-prefix=blank-key-" + UUID.randomUUID() + ":", "--limiter.blank-key=" + blankKey);
    }

    /**
     * A client of its own for each request, so a connection of its own: WebFlux's kept-alive
     * connections are another test's subject.
     */
    private static HttpResponse<String> get(ConfigurableApplicationContext app, String path) {
        int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0"));
        return new LocalHttp(port).get(path);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(BlankKeyHandlers.class)
    static class BlankKeyApp {

    }

    // public methods: @RateLimit applies to public methods only
    @RestController
    static class BlankKeyHandlers {

        private final AtomicInteger bodies = new AtomicInteger();

        public int bodies() {
            return this.bodies.get();
        }

        @GetMapping("/plain")
        @RateLimit(name = "blank-keys.plain", key = "#user", window = "1m", max = 5)
        public String plain(@RequestParam(required = false) String user) {
            return body(user);
        }

        @GetMapping("/future")
        @RateLimit(name = "blank-keys.future", key = "#user", window = "1m", max = 5)
        public CompletableFuture<String> future(@RequestParam(required = false) String user) {
            return CompletableFuture.supplyAsync(() -> body(user));
        }

        @GetMapping("/mono")
        @RateLimit(name = "blank-keys.mono", key = "#user", window = "1m", max = 5)
        public Mono<String> mono(@RequestParam(required = false) String user) {
            return Mono.fromSupplier(() -> body(user));
        }

        @GetMapping("/flux")
        @RateLimit(name = "blank-keys.flux", key = "#user", window = "1m", max = 5)
        public Flux<String> flux(@RequestParam(required = false) String user) {
            return Flux.defer(() -> Flux.just(body(user)));
        }

        @GetMapping("/initials")
        @RateLimit(name = "initials", key = "#user.substring(3)", window = "1m", max = 5)
        public String initials(@RequestParam String user) {
            return body(user);
        }

        @GetMapping("/initials-mono")
        @RateLimit(name = "initials.mono", key = "#user.substring(3)", window = "1m", max = 5)
        public Mono<String> initialsMono(@RequestParam String user) {
            return Mono.fromSupplier(() -> body(user));
        }

        private String body(String user) {
            this.bodies.incrementAndGet();
            return "answer for " + ((user == null || user.isBlank()) ? "nobody" : user);
        }

    }

}
