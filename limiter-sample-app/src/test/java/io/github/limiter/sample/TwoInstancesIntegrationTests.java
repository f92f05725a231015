package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The story on two instances of the app on one Redis, behind no sticky sessions: every step
 * alternates between them. Instance B started while Redis was down. One alert and one ban in
 * total, a token from either instance good on both, alice kicked off both at once, the ban seen and
 * lifted from either.
 */
class TwoInstancesIntegrationTests {

    @Test
    void theStoryHoldsAcrossTwoInstancesOneOfWhichStartedWhileRedisWasDown() {
        EmbeddedRedis notYet = EmbeddedRedis.start();
        notYet.close();
        String prefix = "two-" + UUID.randomUUID() + ":";
        String[] properties = { "--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + notYet.host(), "--spring.data.redis.port=" + notYet.port(),
                "--limiter.key-prefix=" + prefix, "--sample.sessions.namespace=" + prefix + "sessions" };
        try (ConfigurableApplicationContext b = SpringApplication.run(SampleApplication.class, properties)) {
            SampleClient onB = client(b);
            assertThat(onB.login("alice").statusCode()).as("B's login while Redis is down").isEqualTo(503);
            try (EmbeddedRedis redis = EmbeddedRedis.start(notYet.port());
                    ConfigurableApplicationContext a = SpringApplication.run(SampleApplication.class, properties)) {
                SampleClient onA = client(a);
                SampleClient.eventually(() -> onB.login("bob").statusCode(), (status) -> status == 200,
                        "B's login once Redis is up");
                List<SampleClient> instances = List.of(onA, onB);

                String admin = onA.token("admin");
                String aliceFromA = onA.token("alice");
                String aliceFromB = onB.token("alice");
                List<String> aliceTokens = List.of(aliceFromA, aliceFromB);

                for (int read = 1; read <= 10; read++) {
                    SampleClient instance = instances.get(read % 2);
                    assertThat(instance.read(aliceTokens.get(read / 2 % 2), 1 + read % 3)).as("read %d", read)
                        .isEqualTo(200);
                }
                for (SampleClient instance : instances) {
                    assertThat(instance.alertsFor(admin, "alice")).as("no alert after 10 reads").isZero();
                }

                assertThat(onB.read(aliceFromA, 1)).as("read 11, on B with A's token").isEqualTo(200);
                for (SampleClient instance : instances) {
                    SampleClient.eventually(() -> instance.alertsFor(admin, "alice"), (alerts) -> alerts == 1,
                            "read 11's alert on both instances");
                }
                for (int read = 12; read <= 20; read++) {
                    SampleClient instance = instances.get(read % 2);
                    assertThat(instance.read(aliceTokens.get(read / 2 % 2), 1 + read % 3)).as("read %d", read)
                        .isEqualTo(200);
                }

                HttpResponse<String> refused = onA.get("/questions/2/answer", aliceFromB);
                assertThat(refused.statusCode()).as("read 21, on A with B's token").isEqualTo(429);
                assertThat(refused.body()).contains("\"banned\":true");
                for (SampleClient instance : instances) {
                    SampleClient.eventually(() -> instance.bans(admin), (bans) -> bans.contains("\"username\":\"alice\""),
                            "alice's ban listed on both instances");
                    for (String token : aliceTokens) {
                        assertThat(instance.read(token, 1)).as("alice's sessions ended on every instance")
                            .isEqualTo(401);
                    }
                    HttpResponse<String> login = instance.login("alice");
                    assertThat(login.statusCode()).isEqualTo(403);
                    assertThat(login.body()).contains("\"bannedUntil\":");
                    assertThat(instance.alertsFor(admin, "alice")).as("still one alert").isEqualTo(1);
                }
                String bob = onB.token("bob");
                assertThat(onA.read(bob, 3)).as("bob still reads").isEqualTo(200);

                assertThat(onA.delete("/admin/bans/alice", admin).statusCode()).as("lifted on A").isEqualTo(204);
                for (SampleClient instance : instances) {
                    assertThat(instance.bans(admin)).as("no ban left on either instance").isEqualTo("[]");
                }
                assertThat(onB.delete("/admin/bans/alice", admin).statusCode()).as("nothing left to lift on B")
                    .isEqualTo(404);
                String aliceAgain = onB.token("alice");
                assertThat(onA.read(aliceAgain, 1)).as("alice reads again, on A with a token from B").isEqualTo(200);

                List<RecentEvent> events = a.getBean(RedisRateLimiter.class).recentEvents("answers.free");
                assertThat(events).extracting(RecentEvent::type).containsExactly("ban", "alert");
                assertThat(events).extracting(RecentEvent::key).containsOnly("alice");
            }
        }
    }

    private static SampleClient client(ConfigurableApplicationContext instance) {
        return new SampleClient(((WebServerApplicationContext) instance).getWebServer().getPort());
    }

}
