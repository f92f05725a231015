package io.github.limiter.sample;

import java.util.UUID;

import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observability curls of docs/sample-app.md, with the admin's token: the Prometheus scrape and the
 * ratelimits endpoint of the sample app.
 */
@WithRedis
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ObservabilityIntegrationTests {

    private static final String PREFIX = "sample-obs-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
        registry.add("sample.sessions.namespace", () -> PREFIX + "sessions");
    }

    @Test
    void readsShowInHeadersMetricsAndTheEndpoint() {
        SampleClient client = new SampleClient(this.port);
        String bob = client.token("bob");
        var answer = client.get("/questions/1/answer", bob);
        assertThat(answer.headers().firstValue("RateLimit-Policy")).hasValue("\"answers.free\";q=20;w=60");
        assertThat(answer.headers().firstValue("X-RateLimit-Remaining")).hasValue("19");

        String admin = client.token("admin");
        assertThat(client.get("/actuator/prometheus", admin).body())
            .contains("limiter_decisions_total{limit=\"answers.free\",mode=\"enforce\",outcome=\"allowed\"}");
        assertThat(client.get("/actuator/ratelimits", admin).body()).contains("\"limitId\":\"answers.free\"",
                "\"algorithm\":\"SLIDING_LOG\"", "\"alertAt\":10");
        assertThat(client.get("/actuator/ratelimits/answers.free/bob", admin).body()).contains("\"count\":1",
                "\"banned\":false");
    }

}
