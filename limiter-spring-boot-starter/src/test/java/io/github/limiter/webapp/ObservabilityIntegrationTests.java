package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.FixedWindows;
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
                "management.endpoint.ratelimits.access=unrestricted",
                "limiter.policies.reads.window=60s", "limiter.policies.reads.max=3",
                "limiter.policies.reads.alert-at=1", "limiter.policies.reads.ban-for=10m",
                "limiter.policies.trial.window=60s", "limiter.policies.trial.max=1",
                "limiter.policies.trial.mode=shadow", "limiter.policies.searches.window=60s",
                "limiter.policies.searches.max=20", "limiter.policies.searches.alert-at=10" })
class ObservabilityIntegrationTests {

    private static final String PREFIX = "obs-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private RedisRateLimiter rateLimiter;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void headersEndpointAndMetricsTellWhatTheLimiterDid() throws Exception {
        String user = "u" + UUID.randomUUID().toString().substring(0, 8);
        long before = FixedWindows.secondsLeft(Duration.ofMinutes(1));
        HttpResponse<String> first = send("GET", "/obs/read?user=" + user);
        long after = FixedWindows.secondsLeft(Duration.ofMinutes(1));
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"reads\";q=3;w=60");
        // the window is the minute of Redis's clock: what is left of it
        assertThat(first.headers().firstValue("RateLimit")).hasValueSatisfying(value -> {
            assertThat(value).startsWith("\"reads\";r=2;t=");
            assertThat(Long.parseLong(value.substring(value.indexOf("t=") + 2))).isBetween(after, before);
        });
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
        assertThat(this.rateLimiter.awaitRecentEventsWritten(Duration.ofSeconds(5))).isTrue();
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
        assertThat(send("POST", "/actuator/ratelimits/nope/" + user).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/actuator/ratelimits/nope/" + user).statusCode()).isEqualTo(404);

        for (int call = 0; call < 3; call++) {
            assertThat(send("GET", "/obs/trial").statusCode()).as("shadow limits let every call through").isEqualTo(200);
        }

        String scrape = send("GET", "/actuator/prometheus").body();
        assertThat(scrape).contains("limiter_decisions_total{limit=\"reads\",mode=\"enforce\",outcome=\"allowed\"} 4.0",
                "limiter_decisions_total{limit=\"reads\",mode=\"enforce\",outcome=\"banned\"} 1.0",
                "limiter_decisions_total{limit=\"trial\",mode=\"shadow\",outcome=\"rejected\"} 2.0",
                "limiter_alerts_total{limit=\"reads\",mode=\"enforce\"}", "limiter_bans_total{limit=\"reads\",mode=\"enforce\"} 1.0",
                "limiter_redis_latency_seconds_count", "limiter_redis_evictions_total 0.0");
        // each decision is an observation too, which Actuator's meter handler times beside the meters above
        assertThat(scrape).contains(
                "limiter_decision_seconds_count{error=\"none\",limit=\"reads\",outcome=\"allowed\"} 4",
                "limiter_decision_seconds_count{error=\"none\",limit=\"reads\",outcome=\"banned\"} 1",
                "limiter_decision_active_seconds_count{limit=\"reads\",outcome=\"unknown\"} 0");
        assertThat(scrape).doesNotContain(user);
    }

    @Test
    void anAdminChangesAPolicyWhileTheApplicationRunsAndRestoresIt() {
        String user = "u" + UUID.randomUUID().toString().substring(0, 8);
        for (int call = 0; call < 7; call++) {
            assertThat(send("GET", "/obs/search?user=" + user).statusCode()).isEqualTo(200);
        }
        HttpResponse<String> changed = send("POST", "/actuator/ratelimits/searches", "{\"max\": 5, \"alertAt\": 3}");
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body()).contains("\"policy\":\"searches\"", "\"override\":{\"max\":5,", "\"alertAt\":3",
                "\"limitId\":\"searches\"", "\"max\":5");
        assertThat(send("GET", "/obs/search?user=" + user).statusCode()).as("at 7, past the new max 5").isEqualTo(429);
        assertThat(send("GET", "/actuator/ratelimits").body()).contains("\"override\":{\"max\":5,\"window\":null,"
                + "\"alertAt\":3,\"banFor\":null}");

        HttpResponse<String> invalid = send("POST", "/actuator/ratelimits/searches", "{\"window\": \"500us\"}");
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(invalid.body()).contains("Policy 'searches' would have window PT0.0005S");
        HttpResponse<String> alertTooHigh = send("POST", "/actuator/ratelimits/searches", "{\"alertAt\": 5}");
        assertThat(alertTooHigh.statusCode()).isEqualTo(400);
        assertThat(alertTooHigh.body()).contains("alert-at 5, which must be less than max (5)");
        assertThat(send("POST", "/actuator/ratelimits/searches", "{\"window\": \"soon\"}").body())
            .contains("window 'soon' is not a duration");
        assertThat(send("POST", "/actuator/ratelimits/gold", "{\"max\": 5}").statusCode()).isEqualTo(404);

        assertThat(send("POST", "/actuator/ratelimits/searches", "{\"max\": 30}").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/obs/search?user=" + user).statusCode()).as("max 30 lets it go on").isEqualTo(200);
        HttpResponse<String> restored = send("DELETE", "/actuator/ratelimits/searches");
        assertThat(restored.statusCode()).isEqualTo(200);
        assertThat(restored.body()).contains("\"wasOverridden\":true", "\"max\":20");
        assertThat(send("DELETE", "/actuator/ratelimits/gold").statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> send(String method, String path) {
        return new LocalHttp(this.port).send(method, path, Map.of(), null);
    }

    private HttpResponse<String> send(String method, String path, String json) {
        return new LocalHttp(this.port).send(method, path, Map.of("Content-Type", "application/json"), json);
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

        @GetMapping("/obs/search")
        @RateLimit(name = "searches", policy = "searches", key = "#user")
        public String search(@RequestParam String user) {
            return "search";
        }

        @GetMapping("/obs/trial")
        @RateLimit(name = "trial", policy = "trial")
        public String trial() {
            return "trial";
        }

    }

}
