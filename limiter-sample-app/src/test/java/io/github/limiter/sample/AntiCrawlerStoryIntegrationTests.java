package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The story {@code demo.sh} tells, over real HTTP against the app on a random port and a real Redis,
 * and the answers docs/sample-app.md gives for each request, refusals of a plan's change included.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AntiCrawlerStoryIntegrationTests {

    private static final String PREFIX = "story-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private ApplicationContext context;

    @Autowired
    private StringRedisTemplate redis;

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
    void aliceIsAlertedOnRead11BannedOnRead21AndLetBackByTheAdmin() {
        String admin = this.client.token("admin");
        String alice = this.client.token("alice");

        for (int read = 1; read <= 10; read++) {
            assertThat(this.client.read(alice, 1 + read % 3)).as("read %d", read).isEqualTo(200);
        }
        assertThat(this.client.alertsFor(admin, "alice")).as("no alert after 10 reads").isZero();

        assertThat(this.client.read(alice, 1)).isEqualTo(200);
        SampleClient.eventually(() -> this.client.alertsFor(admin, "alice"), (alerts) -> alerts > 0, "read 11's alert");
        assertThat(this.client.alertsFor(admin, "alice")).as("read 11 alerts").isEqualTo(1);

        for (int read = 12; read <= 20; read++) {
            assertThat(this.client.read(alice, 1 + read % 3)).as("read %d", read).isEqualTo(200);
        }
        assertThat(this.client.alertsFor(admin, "alice")).as("no new alert up to read 20").isEqualTo(1);

        HttpResponse<String> refused = this.client.get("/questions/2/answer", alice);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("900");
        assertThat(refused.body()).contains("\"banned\":true");
        SampleClient.eventually(() -> this.client.bans(admin), (bans) -> bans.contains("\"username\":\"alice\""),
                "alice's ban in the admin API");
        assertThat(this.redis.getExpire(PREFIX + "{answers.free:alice}:ban")).isBetween(890L, 900L);

        assertThat(this.client.read(alice, 1)).as("alice's session is ended").isEqualTo(401);
        HttpResponse<String> login = this.client.login("alice");
        assertThat(login.statusCode()).isEqualTo(403);
        assertThat(login.body()).contains("alice is banned for reading too fast, until ");

        String bob = this.client.token("bob");
        assertThat(this.client.read(bob, 3)).isEqualTo(200);

        assertThat(this.client.delete("/admin/bans/alice", admin).statusCode()).isEqualTo(204);
        assertThat(this.client.get("/admin/bans", admin).body()).isEqualTo("[]");
        String aliceAgain = this.client.token("alice");
        assertThat(this.client.read(aliceAgain, 1)).isEqualTo(200);
        assertThat(this.client.alertsFor(admin, "alice")).isEqualTo(1);
        HttpResponse<String> nothingToLift = this.client.delete("/admin/bans/alice", admin);
        assertThat(nothingToLift.statusCode()).as("nothing left to lift").isEqualTo(404);
        assertThat(nothingToLift.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(nothingToLift.body()).contains("\"status\":404", "User 'alice' is not banned");
    }

    @Test
    void refusesMissingAndInvalidTokensAndNonAdminsWithProblemDetails() {
        HttpResponse<String> anonymous = this.client.get("/questions/1/answer", null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("Content-Type")).hasValueSatisfying(
                (type) -> assertThat(type).startsWith("application/problem+json"));
        assertThat(anonymous.body()).contains("\"status\":401", "Authorization: Bearer <token>");
        assertThat(this.client.read("not-a-token", 1)).isEqualTo(401);
        HttpResponse<String> reader = this.client.get("/admin/alerts", this.client.token("bob"));
        assertThat(reader.statusCode()).isEqualTo(403);
        assertThat(reader.body()).contains("\"status\":403", "Administrators only");
        HttpResponse<String> wrongPassword = this.client.login("mallory");
        assertThat(wrongPassword.statusCode()).isEqualTo(401);
        assertThat(wrongPassword.body()).contains("Wrong user name or password");
    }

    @Test
    void onlyTheAdminReadsOrWritesActuatorEndpointsButHealth(CapturedOutput output) {
        String bob = this.client.token("bob");
        String admin = this.client.token("admin");
        assertThat(this.client.get("/actuator/health", null).statusCode()).isEqualTo(200);
        for (String path : List.of("/actuator", "/actuator/ratelimits", "/actuator/ratelimits/answers.free/alice",
                "/actuator/prometheus")) {
            assertThat(this.client.get(path, null).statusCode()).as("GET %s anonymously", path).isEqualTo(401);
            assertThat(this.client.get(path, bob).statusCode()).as("GET %s as a reader", path).isEqualTo(403);
            assertThat(this.client.get(path, admin).statusCode()).as("GET %s as the admin", path).isEqualTo(200);
        }
        // the crawler of the report lifted its own ban and reset its own count this way
        assertThat(this.client.post("/actuator/ratelimits/answers.free/bob", null).statusCode()).isEqualTo(401);
        assertThat(this.client.post("/actuator/ratelimits/answers.free/bob", bob).statusCode()).isEqualTo(403);
        assertThat(this.client.delete("/actuator/ratelimits/answers.free/bob", null).statusCode()).isEqualTo(401);
        assertThat(this.client.delete("/actuator/ratelimits/answers.free/bob", bob).statusCode()).isEqualTo(403);
        assertThat(this.client.delete("/admin/bans/bob", bob).statusCode()).isEqualTo(403);
        // a plan's limit changed live, for every instance (docs/plans.md)
        assertThat(this.client.post("/actuator/ratelimits/free", null, "{\"max\":1000}").statusCode()).isEqualTo(401);
        assertThat(this.client.post("/actuator/ratelimits/free", bob, "{\"max\":1000}").statusCode()).isEqualTo(403);
        assertThat(this.client.delete("/actuator/ratelimits/free", null).statusCode()).isEqualTo(401);
        assertThat(this.client.delete("/actuator/ratelimits/free", bob).statusCode()).isEqualTo(403);
        assertThat(JsonPath.<Object>read(this.client.get("/actuator/ratelimits", admin).body(),
                "$.policies.free.override")).as("free after the refused changes").isNull();
        assertThat(this.client.post("/actuator/ratelimits/answers.free/bob", admin).body())
            .contains("\"wasBanned\":false");
        assertThat(this.client.delete("/actuator/ratelimits/answers.free/bob", admin).statusCode()).isEqualTo(200);
        // each write names who asked, as Spring Security authenticated them
        assertThat(output.getOut()).contains(
                "Rate limit 'answers.free': ban of key 'bob' lifted by 'admin' through the ratelimits endpoint",
                "Rate limit 'answers.free': count, ban and alert of key 'bob' reset by 'admin' through the ratelimits "
                        + "endpoint");
    }

    @Test
    void logoutEndsTheTokensSession() {
        String bob = this.client.token("bob");
        String bobElsewhere = this.client.token("bob");
        assertThat(this.client.post("/api/logout", bob).statusCode()).isEqualTo(204);
        assertThat(this.client.read(bob, 1)).isEqualTo(401);
        assertThat(this.client.read(bobElsewhere, 1)).as("another session of the same user").isEqualTo(200);
        assertThat(this.client.post("/api/logout", bob).statusCode()).as("no session any more").isEqualTo(401);
    }

    @Test
    void answersUnknownQuestionsWith404() {
        assertThat(this.client.read(this.client.token("bob"), 99)).isEqualTo(404);
    }

    @Test
    void usesTheConfiguredRedisRatherThanStartingItsOwn() {
        assertThat(this.context.getBeansOfType(EmbeddedRedis.class)).isEmpty();
    }

    // docs/sample-app.md: a plan's invalid change answers 400 naming the value and the rule, an unknown plan 404

    @Test
    void anInvalidPlanChangeAnswers400NamingTheValueAndTheRule() {
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
