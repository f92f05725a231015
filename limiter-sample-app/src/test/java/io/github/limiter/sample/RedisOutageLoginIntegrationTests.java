package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.util.UUID;

import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While Redis, which holds the sessions and the bans, is down, the app starts all the same and
 * answers 503 with {@code Retry-After} to whatever needs a session: never a 500, never a login it
 * cannot keep. {@code TwoInstancesIntegrationTests} has such an instance serve the whole story once
 * Redis is up.
 */
class RedisOutageLoginIntegrationTests {

    @Test
    void answers503ToLoginsAndTokensWhileRedisIsDown() {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        try (ConfigurableApplicationContext app = SpringApplication.run(SampleApplication.class, "--server.port=0",
                "--spring.main.banner-mode=off", "--spring.data.redis.host=" + stopped.host(),
                "--spring.data.redis.port=" + stopped.port(), "--limiter.key-prefix=down-" + UUID.randomUUID() + ":")) {
            SampleClient client = new SampleClient(((WebServerApplicationContext) app).getWebServer().getPort());

            HttpResponse<String> login = client.login("alice");
            assertThat(login.statusCode()).isEqualTo(503);
            assertThat(login.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(login.body()).contains("\"status\":503", "cannot be reached");

            HttpResponse<String> read = client.get("/questions/1/answer", UUID.randomUUID().toString());
            assertThat(read.statusCode()).as(read.body()).isEqualTo(503);
            assertThat(read.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(read.headers().firstValue("Content-Type")).hasValueSatisfying(
                    (type) -> assertThat(type).startsWith("application/problem+json"));

            assertThat(client.get("/questions/1/answer", null).statusCode()).as("no token, no session to look up")
                .isEqualTo(401);
            // bans and failed logins are counted in Redis, and are checked before the password: while
            // Redis is down a wrong password is answered as the right one is, so a guess learns nothing
            assertThat(client.login("mallory").statusCode()).as("wrong credentials, unchecked").isEqualTo(503);
            assertThat(client.get("/actuator/health", null).statusCode()).isEqualTo(503);
        }
    }

}
