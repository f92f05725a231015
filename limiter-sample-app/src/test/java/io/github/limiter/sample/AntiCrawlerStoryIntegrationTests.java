package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.util.UUID;

import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The story {@code demo.sh} tells, over real HTTP against the app on a random port and a real Redis.
 */
@WithRedis
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
        assertThat(this.client.alertsFor(admin, "alice")).as("read 11 alerts").isEqualTo(1);

        for (int read = 12; read <= 20; read++) {
            assertThat(this.client.read(alice, 1 + read % 3)).as("read %d", read).isEqualTo(200);
        }
        assertThat(this.client.alertsFor(admin, "alice")).as("no new alert up to read 20").isEqualTo(1);

        HttpResponse<String> refused = this.client.get("/questions/2/answer", alice);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("900");
        assertThat(refused.body()).contains("\"banned\":true");
        assertThat(this.client.get("/admin/bans", admin).body()).contains("\"username\":\"alice\"");
        assertThat(this.redis.getExpire(PREFIX + "{answers:alice}:ban")).isBetween(890L, 900L);

        assertThat(this.client.read(alice, 1)).as("alice's token is revoked").isEqualTo(401);
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
        assertThat(this.client.delete("/admin/bans/alice", admin).statusCode()).as("nothing left to lift").isEqualTo(404);
    }

    @Test
    void refusesMissingAndInvalidTokensAndNonAdmins() {
        assertThat(this.client.read(null, 1)).isEqualTo(401);
        assertThat(this.client.read("not-a-token", 1)).isEqualTo(401);
        assertThat(this.client.get("/admin/alerts", this.client.token("bob")).statusCode()).isEqualTo(403);
        assertThat(this.client.login("mallory").statusCode()).isEqualTo(401);
    }

    @Test
    void answersUnknownQuestionsWith404() {
        assertThat(this.client.read(this.client.token("bob"), 99)).isEqualTo(404);
    }

    @Test
    void usesTheConfiguredRedisRatherThanStartingItsOwn() {
        assertThat(this.context.getBeansOfType(EmbeddedRedis.class)).isEmpty();
    }

}
