package io.github.limiter.webapp;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits on URLs from {@code limiter.web.rules}, over HTTP on Spring MVC (Tomcat) and Spring
 * WebFlux (Reactor Netty): a rule answers as an annotation does (429, {@code Retry-After}, the
 * headers, the problem detail), reads the request's variables, refuses or skips a blank key, keeps a
 * hostile header or parameter a key like any other, and is listed by the {@code ratelimits}
 * endpoint. One application per stack, each test with rules and keys of its own; sliding logs, so
 * that no window ends between a test's requests.
 */
@WithRedis
class UrlRulesWebIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Map<WebApplicationType, ConfigurableApplicationContext> apps = new EnumMap<>(
            WebApplicationType.class);

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aRuleRefusesAsAnAnnotationDoesAndAllowsWithTheHeaders(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        for (int call = 1; call <= 3; call++) {
            HttpResponse<String> allowed = http.get("/api/items");
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(3 - call));
            assertThat(allowed.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=3;w=60");
        }
        HttpResponse<String> refused = http.get("/api/items");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.headers().allValues("X-RateLimit-Remaining")).containsExactly("0");
        assertThat(refused.headers().firstValue("RateLimit")).hasValueSatisfying(
                (value) -> assertThat(value).startsWith("\"api\";r=0;t="));
        assertThat(redis.keys(prefix + "{api:*")).containsExactly(prefix + "{api:127.0.0.1}");

        // the same limit on an annotated handler, refused: the same answer but for the names
        for (int call = 1; call <= 3; call++) {
            assertThat(http.get("/annotated").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> annotated = http.get("/annotated");
        assertThat(annotated.statusCode()).isEqualTo(429);
        Map<String, Object> ruleProblem = JsonParserFactory.getJsonParser().parseMap(refused.body());
        Map<String, Object> annotatedProblem = JsonParserFactory.getJsonParser().parseMap(annotated.body());
        assertThat(ruleProblem).containsEntry("limitId", "api")
            .containsEntry("instance", "/api/items")
            .containsEntry("status", 429)
            .containsEntry("banned", false);
        assertThat(ruleProblem.keySet()).isEqualTo(annotatedProblem.keySet());
        for (String same : new String[] { "type", "title", "status", "limit", "banned" }) {
            assertThat(ruleProblem.get(same)).as(same).isEqualTo(annotatedProblem.get(same));
        }
        assertThat(answerHeaders(refused)).isEqualTo(answerHeaders(annotated));

        HttpResponse<String> unmatched = http.get("/other");
        assertThat(unmatched.statusCode()).isEqualTo(200);
        assertThat(unmatched.headers().firstValue("X-RateLimit-Limit")).as("no rule applies").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aRuleReadsTheMethodHeadersAndParametersOfTheRequest(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        assertThat(http.send("POST", "/tenants/acme/orders?sku=42", Map.of("X-Api-Key", "k1"), "").statusCode())
            .isEqualTo(200);
        assertThat(http.send("POST", "/tenants/acme/orders", Map.of("X-Api-Key", "k1",
                "Content-Type", "application/x-www-form-urlencoded"), "sku=43").statusCode()).isEqualTo(200);
        assertThat(http.send("GET", "/tenants/acme/orders", Map.of("X-Api-Key", "k1"), null).statusCode())
            .as("GET is not a method of the rule").isEqualTo(200);
        assertThat(redis.keys(prefix + "{orders:*")).containsExactlyInAnyOrder(
                prefix + "{orders:POST /tenants/acme/orders k1 42}",
                prefix + "{orders:POST /tenants/acme/orders k1 43}");
        // the handler still reads the form the rule read
        assertThat(http.send("POST", "/tenants/acme/orders", Map.of("X-Api-Key", "k1",
                "Content-Type", "application/x-www-form-urlencoded"), "sku=44").body()).isEqualTo("ordered 44");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aBlankKeyIsRefusedWith400OrSkippedAsTheRuleSays(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        HttpResponse<String> blank = http.get("/keyed/x");
        assertThat(blank.statusCode()).isEqualTo(400);
        Map<String, Object> problem = JsonParserFactory.getJsonParser().parseMap(blank.body());
        assertThat(problem).containsEntry("limitId", "keyed").containsEntry("status", 400);
        assertThat((String) problem.get("type")).endsWith("/blank-key");
        assertThat(http.get("/skipped/x").statusCode()).as("skip: not counted, let through").isEqualTo(200);
        assertThat(redis.keys(prefix + "{*")).noneMatch((key) -> key.startsWith(prefix + "{keyed:")
                || key.startsWith(prefix + "{skipped:") || key.startsWith(prefix + "{failing:"));
        HttpResponse<String> failed = http.get("/failing/x");
        assertThat(failed.statusCode()).as("an expression that fails is the application's mistake")
            .isEqualTo(500);
        assertThat((String) JsonParserFactory.getJsonParser().parseMap(failed.body()).get("type"))
            .endsWith("/expression-failed");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aHeaderOrParameterOfAnyLengthOrBytesMakesAKey(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        List<String> hostile = new ArrayList<>(List.of("x".repeat(3000), "{tag}:*?[]\\\"'", "\u00e9\u4e2d\u0007"));
        for (String value : hostile) {
            String query = URLEncoder.encode(value, StandardCharsets.UTF_8);
            assertThat(http.send("GET", "/hostile/x?q=" + query, Map.of("X-Api-Key", "ok"), null).statusCode())
                .as(value.substring(0, Math.min(20, value.length()))).isEqualTo(200);
        }
        // bytes that are no UTF-8: Tomcat ignores the parameter, so the rule reads null (the header instead)
        assertThat(http.send("GET", "/hostile/x?q=%00%FF%FE", Map.of("X-Api-Key", "ok"), null).statusCode())
            .isEqualTo(200);
        assertThat(http.send("GET", "/hostile/x", Map.of("X-Api-Key", "\u00ff".repeat(3000)), null).statusCode())
            .isEqualTo(200);
        assertThat(redis.keys(prefix + "{hostile:*")).hasSizeGreaterThanOrEqualTo(4)
            .allSatisfy((key) -> assertThat(key.length()).isLessThan(400));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void theRatelimitsEndpointListsTheRules(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        HttpResponse<String> limits = http(app).get("/actuator/ratelimits");
        assertThat(limits.statusCode()).isEqualTo(200);
        assertThat(limits.body()).contains("\"api\"", "/api/**", "\"orders\"", "POST /tenants/*/orders");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void rulesMatchingOneRequestAreDecidedTogetherAllOrNothing(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        HttpResponse<String> first = http.get("/bulk/one");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("RateLimit-Policy").orElseThrow().split(", "))
            .as("one decision of both rules").containsExactlyInAnyOrder("\"bulk\";q=3;w=60", "\"bulk-one\";q=1;w=60");
        HttpResponse<String> refused = http.get("/bulk/one");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(JsonParserFactory.getJsonParser().parseMap(refused.body())).containsEntry("limitId", "bulk-one");
        // the rule that did not refuse says when its own window resets, not a wait of 0
        assertThat(refused.headers().firstValue("RateLimit").orElseThrow().split(", "))
            .anySatisfy((entry) -> assertThat(entry).matches("\"bulk\";r=2;t=(5[0-9]|60)"));
        // the refused request took nothing from the other rule: two of its three are left
        HttpResponse<String> other = http.get("/bulk/two");
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(other.headers().firstValue("X-RateLimit-Remaining")).hasValue("1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aRulesPolicyChangedLiveChangesTheRule(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        assertThat(http.get("/downloads/a").headers().firstValue("X-RateLimit-Limit")).hasValue("5");
        HttpResponse<String> changed = http.send("POST", "/actuator/ratelimits/downloads",
                Map.of("Content-Type", "application/json"), "{\"max\": 2}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(http.get("/downloads/a").headers().firstValue("X-RateLimit-Limit")).hasValue("2");
        assertThat(http.get("/downloads/a").statusCode()).as("the third of two").isEqualTo(429);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aConditionLeavesARequestOutOfItsLimitWithoutHeaders(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = http(app);
        Map<String, String> internal = Map.of("X-Internal", "yes");
        for (String path : new String[] { "/partners/a", "/conditional?internal=true" }) {
            HttpResponse<String> left = http.send("GET", path, internal, null);
            assertThat(left.statusCode()).isEqualTo(200);
            assertThat(left.headers().firstValue("X-RateLimit-Limit")).as(path).isEmpty();
            assertThat(left.headers().firstValue("RateLimit-Policy")).as(path).isEmpty();
        }
        assertThat(redis.keys(prefix + "{partners:*")).isEmpty();
        assertThat(redis.keys(prefix + "{conditional:*")).isEmpty();
        for (String path : new String[] { "/partners/a", "/conditional?internal=false" }) {
            HttpResponse<String> counted = http.send("GET", path, Map.of(), null);
            assertThat(counted.statusCode()).isEqualTo(200);
            assertThat(counted.headers().firstValue("X-RateLimit-Remaining")).as(path).hasValue("4");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aTokenBucketsBurstIsTakenAtOnceWhileItsHeadersSayTheRate(WebApplicationType type) {
        LocalHttp http = http(app(type));
        for (int call = 1; call <= 5; call++) {
            HttpResponse<String> allowed = http.get("/burst/a");
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.headers().firstValue("X-RateLimit-Limit")).hasValue("2");
            assertThat(allowed.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(5 - call));
            assertThat(allowed.headers().firstValue("RateLimit-Policy")).hasValue("\"burst\";q=2;w=60");
        }
        HttpResponse<String> refused = http.get("/burst/a");
        assertThat(refused.statusCode()).isEqualTo(429);
        // one token at 2 a minute: 30 seconds
        assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
                (seconds) -> assertThat(Integer.parseInt(seconds)).isBetween(29, 30));
    }

    @Test
    void twoInstancesShareARulesCount() {
        ConfigurableApplicationContext first = app(WebApplicationType.SERVLET);
        String prefix = first.getEnvironment().getProperty("limiter.key-prefix");
        try (ConfigurableApplicationContext second = start(WebApplicationType.SERVLET, prefix)) {
            LocalHttp one = http(first);
            LocalHttp other = http(second);
            assertThat(one.get("/shared/a").headers().firstValue("X-RateLimit-Remaining")).hasValue("2");
            assertThat(other.get("/shared/a").headers().firstValue("X-RateLimit-Remaining")).hasValue("1");
            assertThat(one.get("/shared/a").headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
            assertThat(other.get("/shared/a").statusCode()).as("the fourth, on either instance").isEqualTo(429);
            assertThat(one.get("/shared/a").statusCode()).isEqualTo(429);
        }
    }

    /** The application of a stack, started at its first test: the tests' rules and keys are their own. */
    private static ConfigurableApplicationContext app(WebApplicationType type) {
        return apps.computeIfAbsent(type, (stack) -> start(stack, "url-rules-" + UUID.randomUUID() + ":"));
    }

    @AfterAll
    static void stop() {
        apps.values().forEach(ConfigurableApplicationContext::close);
    }

    static ConfigurableApplicationContext start(WebApplicationType type, String prefix, String... more) {
        List<String> args = new ArrayList<>(List.of("--server.port=0",
                "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                "--spring.data.redis.port=" + RedisServerExtension.redis().port(), "--limiter.key-prefix=" + prefix,
                "--management.endpoints.web.exposure.include=ratelimits",
                "--limiter.web.rules.api.paths=/api/**", "--limiter.web.rules.api.key=#clientIp",
                "--limiter.web.rules.api.window=1m", "--limiter.web.rules.api.max=3",
                "--limiter.web.rules.api.algorithm=sliding-log",
                "--limiter.web.rules.orders.paths=/tenants/*/orders", "--limiter.web.rules.orders.methods=POST",
                "--limiter.web.rules.orders.key=#method + ' ' + #path + ' ' + #headers['x-api-key'] + ' ' "
                        + "+ #params['sku']",
                "--limiter.web.rules.orders.window=1m", "--limiter.web.rules.orders.max=100",
                "--limiter.web.rules.keyed.paths=/keyed/**", "--limiter.web.rules.keyed.key=#headers['X-Api-Key']",
                "--limiter.web.rules.hostile.paths=/hostile/**",
                "--limiter.web.rules.hostile.key=#params['q'] ?: #headers['X-Api-Key']",
                "--limiter.web.rules.hostile.window=1m", "--limiter.web.rules.hostile.max=100",
                "--limiter.web.rules.keyed.window=1m", "--limiter.web.rules.keyed.max=100",
                "--limiter.web.rules.skipped.paths=/skipped/**", "--limiter.web.rules.skipped.key=#headers['X-Api-Key']",
                "--limiter.web.rules.skipped.blank-key=skip", "--limiter.web.rules.skipped.window=1m",
                "--limiter.web.rules.skipped.max=100",
                "--limiter.web.rules.failing.paths=/failing/**", "--limiter.web.rules.failing.key=#path.substring(99)",
                "--limiter.web.rules.failing.window=1m", "--limiter.web.rules.failing.max=100",
                "--limiter.web.rules.bulk.paths=/bulk/**",
                "--limiter.web.rules.bulk.key=#clientIp", "--limiter.web.rules.bulk.window=1m",
                "--limiter.web.rules.bulk.max=3", "--limiter.web.rules.bulk.algorithm=sliding-log",
                "--limiter.web.rules.bulk-one.paths=/bulk/one", "--limiter.web.rules.bulk-one.key=#clientIp",
                "--limiter.web.rules.bulk-one.window=1m", "--limiter.web.rules.bulk-one.max=1",
                "--limiter.web.rules.bulk-one.algorithm=sliding-log", "--limiter.policies.downloads.window=1m",
                "--limiter.policies.downloads.max=5", "--limiter.policies.downloads.algorithm=sliding-log",
                "--limiter.web.rules.downloads.paths=/downloads/**", "--limiter.web.rules.downloads.key=#clientIp",
                "--limiter.web.rules.downloads.policy=downloads",
                "--management.endpoint.ratelimits.access=unrestricted",
                "--limiter.web.rules.partners.paths=/partners/**", "--limiter.web.rules.partners.key=#clientIp",
                "--limiter.web.rules.partners.condition=#headers['X-Internal'] == null",
                "--limiter.web.rules.partners.window=1m", "--limiter.web.rules.partners.max=5",
                "--limiter.web.rules.shared.paths=/shared/**", "--limiter.web.rules.shared.key=#clientIp",
                "--limiter.web.rules.shared.window=1m", "--limiter.web.rules.shared.max=3",
                "--limiter.web.rules.shared.algorithm=sliding-log",
                "--limiter.web.rules.burst.paths=/burst/**", "--limiter.web.rules.burst.key=#clientIp",
                "--limiter.web.rules.burst.algorithm=token-bucket", "--limiter.web.rules.burst.window=1m",
                "--limiter.web.rules.burst.max=2", "--limiter.web.rules.burst.burst=5"));
        args.addAll(List.of(more));
        return new SpringApplicationBuilder(RulesApp.class).web(type)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run(args.toArray(String[]::new));
    }

    /** The answer's header names, but those of its transfer: the length or chunks, the date. */
    private static java.util.Set<String> answerHeaders(HttpResponse<String> response) {
        java.util.Set<String> names = new java.util.TreeSet<>(response.headers().map().keySet());
        names.removeAll(java.util.Set.of("content-length", "transfer-encoding", "date"));
        return names;
    }

    static LocalHttp http(ConfigurableApplicationContext app) {
        return new LocalHttp(Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0")));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(RulesHandlers.class)
    static class RulesApp {

    }

    // handlers of every stack: Mono answers on WebFlux and on Spring MVC alike
    @RestController
    static class RulesHandlers {

        @GetMapping({ "/api/items", "/other", "/keyed/x", "/hostile/x", "/skipped/x", "/failing/x", "/downloads/a",
            "/bulk/one", "/bulk/two", "/partners/a", "/shared/a", "/burst/a",
            "/tenants/acme/orders" })
        public Mono<String> answer() {
            return Mono.just("answer");
        }

        @PostMapping("/tenants/acme/orders")
        public Mono<String> order(@ModelAttribute Order order) {
            return Mono.just("ordered " + order.getSku());
        }

        @GetMapping("/conditional")
        @RateLimit(name = "conditional", key = "#clientIp", window = "1m", max = 5, condition = "!#internal")
        public Mono<String> conditional(@RequestParam boolean internal) {
            return Mono.just("answer");
        }

        @GetMapping("/annotated")
        @RateLimit(name = "annotated", key = "#clientIp", window = "1m", max = 3, algorithm = Algorithm.SLIDING_LOG)
        public Mono<String> annotated() {
            return Mono.just("answer");
        }

    }

    // bound from the query or the form, on both stacks
    public static class Order {

        private String sku;

        public String getSku() {
            return this.sku;
        }

        public void setSku(String sku) {
            this.sku = sku;
        }

    }

}
