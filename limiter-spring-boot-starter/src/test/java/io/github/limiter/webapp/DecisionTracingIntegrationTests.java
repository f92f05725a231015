package io.github.limiter.webapp;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.observation.DecisionObservationContext;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a Spring MVC application that observes (an {@code ObservationRegistry} bean, as Actuator gives
 * it, here a test one), a limited request's trace is the server's observation, the limiter's
 * decision as its child, and the decision's script call, observed by Lettuce as Spring Boot sets it
 * up, as the decision's child.
 */
@WithRedis
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = DecisionTracingIntegrationTests.TracedApp.class)
class DecisionTracingIntegrationTests {

    private static final String PREFIX = "traced-" + UUID.randomUUID() + ":";

    // every observation started, in order
    private static final List<Observation.Context> started = new CopyOnWriteArrayList<>();

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
        // Jedis has no observations of its own: the script call's span is Lettuce's
        registry.add("spring.data.redis.client-type", () -> "lettuce");
    }

    @Test
    void aLimitedRequestsTraceShowsTheDecisionAndItsScriptCall() {
        started.clear();
        assertThat(new LocalHttp(this.port).get("/traced?user=alice").statusCode()).isEqualTo(200);

        DecisionObservationContext decision = started.stream()
            .filter(DecisionObservationContext.class::isInstance)
            .map(DecisionObservationContext.class::cast)
            .reduce((first, second) -> {
                throw new AssertionError("two decisions: " + first + ", " + second);
            })
            .orElseThrow(() -> new AssertionError("no decision observed in " + started));
        assertThat(decision.getName()).isEqualTo("limiter.decision");
        assertThat(decision.getLowCardinalityKeyValue("limit").getValue()).isEqualTo("traced");
        assertThat(decision.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("allowed");
        assertThat(decision.getParentObservation()).as("the request's observation").isNotNull();
        assertThat(decision.getParentObservation().getContextView().getName()).isEqualTo("http.server.requests");

        List<Observation.Context> scriptCalls = started.stream()
            .filter(context -> context.getParentObservation() != null
                    && context.getParentObservation().getContextView() == decision)
            .toList();
        assertThat(scriptCalls).singleElement().satisfies(call -> {
            assertThat(call.getName()).isEqualTo("lettuce");
            assertThat(call.getContextualName()).isEqualTo("evalsha");
        });
    }

    @SpringBootApplication
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

    }

}
