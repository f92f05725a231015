package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plans on two instances of the app on one Redis, B started while Redis was down: carol, on
 * {@code pro}, reads past {@code free}'s 20 with no alert or ban while bob, on {@code free}, is
 * refused and banned past 20; then the admin raises {@code free}'s max on A while the app runs, B
 * applies it within its poll interval, and alice, at 20 on {@code free}, reads on; bob's ban is
 * kept; readers may not change a plan, an invalid change is refused with its reason, and restoring
 * the plan brings 20 back.
 */
class PlansOnTwoInstancesIntegrationTests {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

    /** The longest B may take to apply a change made on A: its poll interval, a Redis round trip, room to spare. */
    private static final Duration APPLIED_EVERYWHERE = Duration.ofSeconds(2);

    @Test
    void proReadsPastFreesLimitAndTheAdminRaisesFreeOnEveryInstanceWhileTheAppRuns() {
        EmbeddedRedis notYet = EmbeddedRedis.start();
        notYet.close();
        String prefix = "plans-" + UUID.randomUUID() + ":";
        String[] properties = { "--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + notYet.host(), "--spring.data.redis.port=" + notYet.port(),
                "--limiter.key-prefix=" + prefix, "--sample.sessions.namespace=" + prefix + "sessions",
                "--limiter.policy-overrides.poll-interval=" + POLL_INTERVAL.toMillis() + "ms" };
        try (ConfigurableApplicationContext b = SpringApplication.run(SampleApplication.class, properties)) {
            SampleClient onB = client(b);
            assertThat(onB.login("carol").statusCode()).as("B's login while Redis is down").isEqualTo(503);
            try (EmbeddedRedis redis = EmbeddedRedis.start(notYet.port());
                    ConfigurableApplicationContext a = SpringApplication.run(SampleApplication.class, properties)) {
                SampleClient onA = client(a);
                SampleClient.eventually(() -> onB.login("carol").statusCode(), (status) -> status == 200,
                        "B's login once Redis is up");
                List<SampleClient> instances = List.of(onA, onB);
                String admin = onA.token("admin");

                // carol (pro) reads 25 answers alternating between the instances: past free's 20 and its
                // alert at 10, short of pro's alert at 40
                String carol = onB.token("carol");
                for (int read = 1; read <= 25; read++) {
                    assertThat(instances.get(read % 2).read(carol, 1 + read % 3)).as("carol's read %d", read)
                        .isEqualTo(200);
                }
                // bob (free) reads 20, and read 21 is refused and bans him
                String bob = onA.token("bob");
                for (int read = 1; read <= 20; read++) {
                    assertThat(instances.get(read % 2).read(bob, 1 + read % 3)).as("bob's read %d", read)
                        .isEqualTo(200);
                }
                HttpResponse<String> refused = onB.get("/questions/2/answer", bob);
                assertThat(refused.statusCode()).as("bob's read 21").isEqualTo(429);
                assertThat(refused.body()).contains("\"banned\":true", "\"limitId\":\"answers.free\"");
                awaitEventsWritten(a, b);
                assertThat(onA.alertsFor(admin, "carol")).as("carol's alerts").isZero();
                assertThat(onA.alertsFor(admin, "bob")).as("bob's alerts").isEqualTo(1);
                String bans = onB.bans(admin);
                assertThat(JsonPath.<List<String>>read(bans, "$[*].username")).containsExactly("bob");
                assertThat(JsonPath.<List<String>>read(bans, "$[*].plan")).containsExactly("free");
                assertThat(keyState(onA, admin, "answers.pro", "carol")).containsEntry("count", 25)
                    .containsEntry("max", 60)
                    .containsEntry("banned", false);

                // the admin has no plan: limiter.default-policy counts the admin's reads as free
                assertThat(onB.read(admin, 1)).isEqualTo(200);
                assertThat(keyState(onA, admin, "answers.free", "admin")).containsEntry("count", 1);

                // only the admin may change a plan, and only to valid values
                HttpResponse<String> byReader = onA.post("/actuator/ratelimits/free", carol, "{\"max\":30}");
                assertThat(byReader.statusCode()).as("a reader's change").isEqualTo(403);
                assertThat(byReader.body()).contains("Administrators only");
                HttpResponse<String> invalid = onA.post("/actuator/ratelimits/free", admin,
                        "{\"max\":30,\"alertAt\":40}");
                assertThat(invalid.statusCode()).as("alert-at 40 with max 30").isEqualTo(400);
                assertThat(invalid.body()).contains("\"error\":\"Invalid policy change\"",
                        "Policy 'free' would have alert-at 40, which must be less than max (30)");
                assertThat(freeOverride(onA, admin)).as("free after the refused change").isNull();

                // alice (free) reads exactly 20: at the limit, not past it, so not banned
                String alice = onB.token("alice");
                for (int read = 1; read <= 20; read++) {
                    assertThat(instances.get(read % 2).read(alice, 1 + read % 3)).as("alice's read %d", read)
                        .isEqualTo(200);
                }

                // the admin raises free to 30 on A; B applies it within its poll interval
                HttpResponse<String> raised = onA.post("/actuator/ratelimits/free", admin,
                        "{\"max\":30,\"alertAt\":10}");
                assertThat(raised.statusCode()).as(raised.body()).isEqualTo(200);
                assertThat(JsonPath.<Map<String, Object>>read(raised.body(), "$.override")).containsEntry("max", 30)
                    .containsEntry("alertAt", 10);
                assertThat(JsonPath.<List<Integer>>read(raised.body(), "$.limits[*].max")).containsExactly(30);
                assertThat(freeOverride(onA, admin)).as("on A, at once").containsEntry("max", 30);
                SampleClient.eventually(() -> freeOverride(onB, admin), (override) -> override != null,
                        "free's override on B", APPLIED_EVERYWHERE);
                assertThat(freeOverride(onB, admin)).containsEntry("max", 30).containsEntry("alertAt", 10);

                // alice's count is kept, and the raised limit lets her go on, on either instance
                for (int read = 21; read <= 25; read++) {
                    assertThat(instances.get(read % 2).read(alice, 1 + read % 3)).as("alice's read %d", read)
                        .isEqualTo(200);
                }
                assertThat(keyState(onB, admin, "answers.free", "alice")).containsEntry("count", 25)
                    .containsEntry("max", 30);
                // bob's ban is kept
                for (SampleClient instance : instances) {
                    assertThat(instance.login("bob").statusCode()).as("bob's login, still banned").isEqualTo(403);
                }
                assertThat(JsonPath.<List<String>>read(onA.bans(admin), "$[*].username")).containsExactly("bob");

                // the admin restores free on B; back to 20 on both instances
                HttpResponse<String> restored = onB.delete("/actuator/ratelimits/free", admin);
                assertThat(restored.statusCode()).as(restored.body()).isEqualTo(200);
                assertThat(restored.body()).contains("\"wasOverridden\":true");
                SampleClient.eventually(() -> freeOverride(onA, admin), (override) -> override == null,
                        "free's override gone on A", APPLIED_EVERYWHERE);
                HttpResponse<String> pastTwenty = onA.get("/questions/1/answer", alice);
                assertThat(pastTwenty.statusCode()).as("alice's read 26, free back to 20").isEqualTo(429);
                assertThat(pastTwenty.body()).contains("\"banned\":true", "\"limit\":20");
            }
        }
    }

    private static void awaitEventsWritten(ConfigurableApplicationContext... instances) {
        for (ConfigurableApplicationContext instance : instances) {
            assertThat(instance.getBean(RedisRateLimiter.class).awaitRecentEventsWritten(Duration.ofSeconds(10)))
                .as("recent events written")
                .isTrue();
        }
    }

    /** The override of policy free an instance applies, as its ratelimits endpoint shows it. */
    private static @Nullable Map<String, Object> freeOverride(SampleClient instance, String admin) {
        return JsonPath.read(instance.get("/actuator/ratelimits", admin).body(), "$.policies.free.override");
    }

    private static Map<String, Object> keyState(SampleClient instance, String admin, String limitId, String key) {
        return JsonPath.read(instance.get("/actuator/ratelimits/" + limitId + "/" + key, admin).body(), "$");
    }

    private static SampleClient client(ConfigurableApplicationContext instance) {
        return new SampleClient(((WebServerApplicationContext) instance).getWebServer().getPort());
    }

}
