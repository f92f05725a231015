package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.util.UUID;

import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the admin is told over HTTP when a plan change is refused, as the ratelimits endpoint
 * describes it: an invalid value answers 400 naming the value and the rule, an unknown plan 404.
 */
@WithRedis
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PlanChangeRefusalsIntegrationTests {

    private static final String PREFIX = "plan-refusals-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    private SampleClient client;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
        registry.add("sample.sessions.namespace", () -> PREFIX + "sessions");
    }

    @BeforeEach
    void client() {
        this.client = new SampleClient(this.port);
    }

    @Test
    void anInvalidChangeAnswers400NamingTheValueAndTheRule() {
        HttpResponse<String> invalid = this.client.post("/actuator/ratelimits/free", this.client.token("admin"),
                "{\"max\":30,\"alertAt\":40}");
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(invalid.body())
            .contains("Policy 'free' would have alert-at 40, which must be less than max (30)");
    }

    @Test
    void aChangeOfAnUnknownPlanAnswers404() {
        String admin = this.client.token("admin");
        assertThat(this.client.post("/actuator/ratelimits/gold", admin, "{\"max\":30}").statusCode()).isEqualTo(404);
        assertThat(this.client.delete("/actuator/ratelimits/gold", admin).statusCode()).isEqualTo(404);
    }

}
