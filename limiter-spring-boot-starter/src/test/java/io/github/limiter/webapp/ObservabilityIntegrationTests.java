package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RecentEvents;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

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

@WithRedis
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = ObservabilityIntegrationTests.ObservedApp.class,
        properties = { "management.endpoints.web.exposure.include=ratelimits,prometheus",
                "limiter.policies.reads.window=60s", "limiter.policies.reads.max=3",
                "limiter.policies.reads.alert-at=1", "limiter.policies.reads.ban-for=10m",
                "limiter.policies.trial.window=60s", "limiter.policies.trial.max=1",
                "limiter.policies.trial.mode=shadow" })
class ObservabilityIntegrationTests {

    private static final String PREFIX = "obs-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private RecentEvents recentEvents;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void headersEndpointAndMetricsTellWhatTheLimiterDid() throws Exception {
        String user = "u" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> first = send("GET", "/obs/read?user=" + user);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"reads\";q=3;w=60");
        assertThat(first.headers().firstValue("RateLimit")).hasValue("\"reads\";r=2;t=60");
        assertThat(first.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
        assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("2");
        send("GET", "/obs/read?user=" + user);
        send("GET", "/obs/read?user=" + user);

        HttpResponse<String> banned = send("GET", "/obs/read?user=" + user);
        assertThat(banned.statusCode()).isEqualTo(429);
        assertThat(banned.headers().firstValue("Retry-After")).hasValue("600");
        assertThat(banned.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
        assertThat(banned.headers().firstValue("X-RateLimit-Reset")).hasValue("600");
        assertThat(banned.headers().firstValue("RateLimit")).hasValue("\"reads\";r=0;t=600");

        // recent events are written off the deciding thread
        assertThat(this.recentEvents.awaitWritten(Duration.ofSeconds(5))).isTrue();
        String report = send("GET", "/actuator/ratelimits").body();
        assertThat(report).contains("\"limitId\":\"reads\"", "\"method\":\"ObservedController.read(String)\"",
                "\"algorithm\":\"FIXED_WINDOW\"", "\"mode\":\"SHADOW\"", "\"policies\":{",
                "\"type\":\"alert\"", "\"type\":\"ban\"", "\"key\":\"" + user + "\"");

        String state = send("GET", "/actuator/ratelimits/reads/" + user).body();
        assertThat(state).contains("\"count\":3", "\"banned\":true", "\"bannedUntil\":");
        assertThat(send("POST", "/actuator/ratelimits/reads/" + user).body()).contains("\"wasBanned\":true");
        assertThat(send("GET", "/actuator/ratelimits/reads/" + user).body()).contains("\"banned\":false", "\"count\":0");
        assertThat(send("GET", "/obs/read?user=" + user).statusCode()).isEqualTo(200);
        assertThat(send("DELETE", "/actuator/ratelimits/reads/" + user).body()).contains("\"reset\":true");
        assertThat(send("GET", "/actuator/ratelimits/nope/" + user).statusCode()).isEqualTo(404);

        for (int call = 0; call < 3; call++) {
            assertThat(send("GET", "/obs/trial").statusCode()).as("shadow limits let every call through").isEqualTo(200);
        }

        String scrape = send("GET", "/actuator/prometheus").body();
        assertThat(scrape).contains("limiter_decisions_total{limit=\"reads\",mode=\"enforce\",outcome=\"allowed\"} 4.0",
                "limiter_decisions_total{limit=\"reads\",mode=\"enforce\",outcome=\"banned\"} 1.0",
                "limiter_decisions_total{limit=\"trial\",mode=\"shadow\",outcome=\"rejected\"} 2.0",
                "limiter_alerts_total{limit=\"reads\",mode=\"enforce\"}", "limiter_bans_total{limit=\"reads\",mode=\"enforce\"} 1.0",
                "limiter_redis_latency_seconds_count");
        assertThat(scrape).doesNotContain(user);
    }

    private HttpResponse<String> send(String method, String path) {
        return new LocalHttp(this.port).send(method, path, Map.of(), null);
    }

    @SpringBootApplication
    @Import(ObservedController.class)
    static class ObservedApp {

    }

    @RestController
    static class ObservedController {

        @GetMapping("/obs/read")
        @RateLimit(name = "reads", policy = "reads", key = "#user")
        public String read(@RequestParam String user) {
            return "read";
        }

        @GetMapping("/obs/trial")
        @RateLimit(name = "trial", policy = "trial")
        public String trial() {
            return "trial";
        }

    }

}
