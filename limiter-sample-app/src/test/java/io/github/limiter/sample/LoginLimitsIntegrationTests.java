package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import io.github.limiter.sample.auth.LoginAttempts;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's login under its limits of failed attempts (5 per user and 20 per client address in 15
 * minutes), over real HTTP on a real Redis: wrong passwords count, right ones do not; past a limit
 * the login is answered 429 with {@code Retry-After}, the right password too; a banned user's login
 * is answered 403 whatever the password. And under the URL rule {@code logins} of
 * {@code application.yml}: every login request of an address counts, and the 61st in a minute is
 * refused before the controller sees it.
 */
@WithRedis
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LoginLimitsIntegrationTests {

    private static final String PREFIX = "logins-" + UUID.randomUUID() + ":";

    private static final Duration WINDOW = Duration.ofMinutes(15);

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private StringRedisTemplate redis;

    private SampleClient client;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
        registry.add("sample.sessions.namespace", () -> PREFIX + "sessions");
    }

    @BeforeEach
    void start() {
        this.client = new SampleClient(this.port);
        // every test logs in from this machine's address: each starts with no login counted, failed
        // (login.user, login.address) or any (logins)
        Set<String> counts = this.redis.keys(PREFIX + "{login*");
        if (counts != null && !counts.isEmpty()) {
            this.redis.delete(counts);
        }
        // the limits are fixed windows of 15 minutes of Redis's clock: none ends within a test
        FixedWindows.awaitRoom(this.redis, WINDOW, Duration.ofMinutes(1));
    }

    @Test
    void theSixthWrongPasswordIsRefusedAndTheRightOneTooUntilTheWindowEnds() {
        for (int attempt = 1; attempt <= 5; attempt++) {
            assertThat(this.client.login("bob", "guess-" + attempt).statusCode()).as("attempt %d", attempt)
                .isEqualTo(401);
        }
        HttpResponse<String> sixth = this.client.login("bob", "guess-6");
        assertThat(sixth.statusCode()).isEqualTo(429);
        long retryAfter = Long.parseLong(sixth.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).as("seconds to the window's end").isPositive().isLessThanOrEqualTo(WINDOW.toSeconds());
        assertThat(sixth.body()).contains("\"limitId\":\"" + LoginAttempts.BY_USER + "\"");
        HttpResponse<String> right = this.client.login("bob");
        assertThat(right.statusCode()).as("the right password, within the window").isEqualTo(429);
        assertThat(right.headers().firstValue("Retry-After")).isPresent();
        assertThat(this.client.login("BOB").statusCode()).as("the same user, spelled otherwise").isEqualTo(429);
        assertThat(this.client.login("carol").statusCode()).as("another user").isEqualTo(200);
    }

    @Test
    void successfulLoginsNeverCountAndAnAddressGetsTwentyFailures() {
        for (int attempt = 1; attempt <= 19; attempt++) {
            assertThat(this.client.login("user-" + attempt, "guess").statusCode()).as("attempt %d", attempt)
                .isEqualTo(401);
        }
        for (int login = 1; login <= 3; login++) {
            assertThat(this.client.login("carol").statusCode()).as("login %d", login).isEqualTo(200);
        }
        assertThat(this.client.login("user-20", "guess").statusCode())
            .as("the 20th failure: the 3 logins between did not count").isEqualTo(401);
        HttpResponse<String> refused = this.client.login("user-21", "guess");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("\"limitId\":\"" + LoginAttempts.BY_ADDRESS + "\"");
        assertThat(this.client.login("carol").statusCode()).as("a right password from that address too")
            .isEqualTo(429);
    }

    @Test
    void aBannedUsersLoginIsRefusedWhateverThePassword() {
        String alice = this.client.token("alice");
        for (int read = 1; read <= 21; read++) {
            this.client.read(alice, 1 + read % 3);
        }
        HttpResponse<String> wrong = this.client.login("alice", "wrong");
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(wrong.body()).contains("alice is banned for reading too fast, until ");
        assertThat(this.client.login("alice").statusCode()).isEqualTo(403);
        assertThat(FixedWindows.count(this.redis, PREFIX + "{" + LoginAttempts.BY_USER + ":alice}"))
            .as("her one login succeeded and gave its permit back; the banned attempts were not counted")
            .isZero();
    }

    @Test
    void theRuleCountsEveryLoginOfAnAddressAndRefusesThe61stInAMinuteBeforeTheController() {
        String admin = this.client.token("admin");
        HttpResponse<String> limits = this.client.get("/actuator/ratelimits", admin);
        assertThat(limits.body()).as("the rule, listed with the annotated limits")
            .contains("\"limitId\":\"logins\",\"method\":\"POST /api/login\",\"key\":\"#clientIp\"");
        assertThat(this.client.login("carol").statusCode()).isEqualTo(200);
        // requests the controller refuses count too: the rule counts them before it sees them
        for (int login = 3; login <= 59; login++) {
            assertThat(this.client.login("", "guess").statusCode()).as("login %d", login).isEqualTo(400);
        }
        HttpResponse<String> sixtieth = this.client.login("carol");
        assertThat(sixtieth.statusCode()).isEqualTo(200);

        HttpResponse<String> refused = this.client.login("carol");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
            .as("seconds until the first of the 60 leaves the minute").isPositive().isLessThanOrEqualTo(60);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"logins\";q=60;w=60");
        assertThat(refused.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
        assertThat(refused.body()).contains("\"type\":\"https://limiter.github.io/problems/rate-limit-exceeded\"",
                "\"title\":\"Rate limit exceeded\"", "\"status\":429", "\"instance\":\"/api/login\"",
                "\"limitId\":\"logins\"", "\"limit\":60", "\"banned\":false");
        assertThat(this.client.login("admin", "guess").statusCode()).as("a wrong password, refused as well")
            .isEqualTo(429);
        assertThat(FixedWindows.count(this.redis, PREFIX + "{" + LoginAttempts.BY_ADDRESS + ":127.0.0.1}"))
            .as("the refused logins never reached the password check").isZero();
        assertThat(this.client.get("/actuator/ratelimits/logins/127.0.0.1", admin).body())
            .as("the address's 60 logins, as the admin sees them").contains("\"count\":60");

        // the admin, logged in before, forgets the address's logins, on every instance
        assertThat(this.client.delete("/actuator/ratelimits/logins/127.0.0.1", admin).statusCode()).isEqualTo(200);
        assertThat(this.client.login("carol").statusCode()).isEqualTo(200);
    }

    @Test
    void aLoginWithoutAUsernameIsTheClientsMistake() {
        assertThat(this.client.login("", "guess").statusCode()).isEqualTo(400);
        assertThat(this.client.login(" ", "guess").statusCode()).isEqualTo(400);
    }

}
