package io.github.limiter.webapp;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.observation.DecisionObservationContext;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a Spring MVC or WebFlux application that observes (an {@code ObservationRegistry} bean, as
 * Actuator gives it, here a test one), a limited request's trace is the server's observation, the
 * limiter's decision as its child, and the decision's script call, observed by Lettuce as Spring
 * Boot sets it up, as the decision's child: for a handler returning a value on the request's thread,
 * and for one returning a {@code Mono}, whose request observation WebFlux keeps in the Reactor
 * context.
 */
@WithRedis
class DecisionTracingIntegrationTests {

    // every observation started, in order
    private static final List<Observation.Context> started = new CopyOnWriteArrayList<>();

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({ "SERVLET, /traced", "SERVLET, /traced-mono", "REACTIVE, /traced-mono" })
    void aLimitedRequestsTraceShowsTheDecisionAndItsScriptCall(WebApplicationType type, String path) {
        try (ConfigurableApplicationContext app = start(type)) {
            started.clear();
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0"));
            assertThat(new LocalHttp(port).get(path + "?user=alice").statusCode()).isEqualTo(200);

            DecisionObservationContext decision = started.stream()
                .filter(DecisionObservationContext.class::isInstance)
                .map(DecisionObservationContext.class::cast)
                .reduce((first, second) -> {
                    throw new AssertionError("two decisions: " + first + ", " + second);
                })
                .orElseThrow(() -> new AssertionError("no decision observed in " + started));
            assertThat(decision.getName()).isEqualTo("limiter.decision");
            assertThat(decision.getLowCardinalityKeyValue("limit").getValue()).isEqualTo(path.substring(1));
            assertThat(decision.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("allowed");
            assertThat(decision.getParentObservation()).as("the request's observation").isNotNull();
            assertThat(decision.getParentObservation().getContextView().getName()).isEqualTo("http.server.requests");

            List<Observation.Context> scriptCalls = started.stream()
                .filter(context -> context.getParentObservation() != null
                        && context.getParentObservation().getContextView() == decision)
                .toList();
            // the command is known when Lettuce starts the observation (its names only when it stops)
            assertThat(scriptCalls).singleElement().satisfies(call -> {
                assertThat(call.getName()).isEqualTo("lettuce");
                assertThat(((LettuceObservationContext) call).getRequiredCommand().getType().toString())
                    .isEqualTo("EVALSHA");
            });
        }
    }

    private static ConfigurableApplicationContext start(WebApplicationType type) {
        // Jedis has no observations of its own: the script call's span is Lettuce's
        return new SpringApplicationBuilder(TracedApp.class).web(type)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(),
                    "--spring.data.redis.client-type=lettuce",
                    "--limiter.key-prefix=traced-" + UUID.randomUUID() + ":");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TracedController.class)
    static class TracedApp {

        @Bean
        TestObservationRegistry observationRegistry() {
            TestObservationRegistry registry = TestObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler<>() {

                @Override
                public void onStart(Observation.Context context) {
                    started.add(context);
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }

            });
            return registry;
        }

    }

    @RestController
    static class TracedController {

        @GetMapping("/traced")
        @RateLimit(name = "traced", key = "#user", window = "1m", max = 5)
        public String traced(@RequestParam String user) {
            return "traced for " + user;
        }

        @GetMapping("/traced-mono")
        @RateLimit(name = "traced-mono", key = "#user", window = "1m", max = 5)
        public Mono<String> tracedMono(@RequestParam String user) {
            return Mono.just("traced for " + user);
        }

    }

}
