package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = TiersIntegrationTests.TiersApp.class,
        properties = { "limiter.policies.reads.window=60s", "limiter.policies.reads.max=4",
                "limiter.policies.reads.alert-at=2", "limiter.policies.reads.ban-for=15m",
                "limiter.web.ban-status=403" })
class TiersIntegrationTests {

    private static final String PREFIX = "tiers-web-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private Events events;

    @Autowired
    private RateLimitAdmin rateLimits;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void policyTiersPublishSpringEventsAndBansGetTheConfiguredStatus(CapturedOutput output) {
        String user = "u-" + UUID.randomUUID();
        for (int read = 1; read <= 4; read++) {
            assertThat(read(user).statusCode()).isEqualTo(200);
            assertThat(this.events.alerts).hasSize((read >= 3) ? 1 : 0);
        }
        assertThat(this.events.alerts).containsExactly(new RateLimitAlertEvent("reads", user, 3, 2, Duration.ofSeconds(60)));
        assertThat(this.events.bans).isEmpty();

        HttpResponse<String> banning = read(user);
        assertThat(banning.statusCode()).isEqualTo(403);
        assertThat(banning.headers().firstValue("Retry-After")).hasValue("900");
        assertThat(banning.body()).contains("\"type\":\"https://limiter.github.io/problems/banned\"").contains("\"banned\":true");
        assertThat(this.events.bans).containsExactly(new RateLimitBanEvent("reads", user, Duration.ofMinutes(15)));

        assertThat(read(user).statusCode()).isEqualTo(403);
        assertThat(this.events.bans).hasSize(1);
        assertThat(this.rateLimits.isBanned("reads", user)).isTrue();

        assertThat(this.rateLimits.unban("reads", user)).isTrue();
        assertThat(read(user).statusCode()).isEqualTo(200);

        // one WARN line per alert and per ban, none per decision
        assertThat(output.getOut().lines().filter(line -> line.contains("WARN") && line.contains(user)))
            .hasSize(2)
            .anyMatch(line -> line.contains("Rate limit 'reads' alert: key '" + user + "' made 3 calls"))
            .anyMatch(line -> line.contains("Rate limit 'reads' ban: key '" + user + "' went past 4 calls"));
        assertThat(output.getOut()).doesNotContain("Decided [");
    }

    private HttpResponse<String> read(String user) {
        return new LocalHttp(this.port).get("/read?user=" + user);
    }

    @SpringBootApplication
    @Import({ ReadController.class, Events.class })
    static class TiersApp {

    }

    @RestController
    static class ReadController {

        @GetMapping("/read")
        @RateLimit(name = "reads", policy = "reads", key = "#user")
        public String read(@RequestParam String user) {
            return "read";
        }

    }

    @Component
    static class Events {

        final List<RateLimitAlertEvent> alerts = new CopyOnWriteArrayList<>();

        final List<RateLimitBanEvent> bans = new CopyOnWriteArrayList<>();

        @EventListener
        void onAlert(RateLimitAlertEvent event) {
            this.alerts.add(event);
        }

        @EventListener
        void onBan(RateLimitBanEvent event) {
            this.bans.add(event);
        }

    }

}
