package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.Algorithm;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A limited bean called from a functional endpoint ({@code RouterFunction}) on Spring MVC and
 * Spring WebFlux: a refused call is answered as an annotated controller's is, with 429,
 * {@code Retry-After}, the rate-limit headers and the problem detail; a blank key with 400.
 */
@WithRedis
class FunctionalEndpointsIntegrationTests {

    private static final Map<WebApplicationType, ConfigurableApplicationContext> apps = new EnumMap<>(
            WebApplicationType.class);

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aRefusedCallOfAFunctionalEndpointIsAnsweredAsAnAnnotatedControllersIs(WebApplicationType type) {
        LocalHttp http = UrlRulesWebIntegrationTests.http(app(type));
        for (int call = 1; call <= 2; call++) {
            HttpResponse<String> allowed = http.get("/fn/reports?user=ann");
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.body()).isEqualTo("report for ann");
            assertThat(allowed.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(2 - call));
        }
        HttpResponse<String> refused = http.get("/fn/reports?user=ann");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        Map<String, Object> problem = JsonParserFactory.getJsonParser().parseMap(refused.body());
        assertThat(problem).containsEntry("limitId", "fn-reports").containsEntry("status", 429);
        assertThat((String) problem.get("type")).endsWith("/rate-limit-exceeded");

        HttpResponse<String> blank = http.get("/fn/reports?user=");
        assertThat(blank.statusCode()).isEqualTo(400);
        assertThat((String) JsonParserFactory.getJsonParser().parseMap(blank.body()).get("type"))
            .endsWith("/blank-key");
    }

    private static ConfigurableApplicationContext app(WebApplicationType type) {
        return apps.computeIfAbsent(type, (stack) -> new SpringApplicationBuilder(FunctionalApp.class).web(stack)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(),
                    "--limiter.key-prefix=functional-" + UUID.randomUUID() + ":"));
    }

    @AfterAll
    static void stop() {
        apps.values().forEach(ConfigurableApplicationContext::close);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ServletRoutes.class, ReactiveRoutes.class })
    static class FunctionalApp {

        @Bean
        Reports reports() {
            return new Reports();
        }

    }

    public static class Reports {

        // decided on the calling thread: a servlet handler's
        @RateLimit(name = "fn-reports", key = "#user", window = "1m", max = 2, algorithm = Algorithm.SLIDING_LOG)
        public String reportNow(String user) {
            return "report for " + user;
        }

        // decided when subscribed to: a reactive handler's
        @RateLimit(name = "fn-reports", key = "#user", window = "1m", max = 2, algorithm = Algorithm.SLIDING_LOG)
        public Mono<String> report(String user) {
            return Mono.just("report for " + user);
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class ServletRoutes {

        @Bean
        org.springframework.web.servlet.function.RouterFunction<org.springframework.web.servlet.function.ServerResponse> routes(
                Reports reports) {
            return org.springframework.web.servlet.function.RouterFunctions.route()
                .GET("/fn/reports", (request) -> org.springframework.web.servlet.function.ServerResponse.ok()
                    .body(reports.reportNow(request.param("user").orElse(""))))
                .build();
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class ReactiveRoutes {

        @Bean
        org.springframework.web.reactive.function.server.RouterFunction<org.springframework.web.reactive.function.server.ServerResponse> routes(
                Reports reports) {
            return org.springframework.web.reactive.function.server.RouterFunctions.route()
                .GET("/fn/reports", (request) -> org.springframework.web.reactive.function.server.ServerResponse.ok()
                    .body(reports.report(request.queryParam("user").orElse("")), String.class))
                .build();
        }

    }

}
