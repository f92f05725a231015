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
 * While Redis is down, the login does what the answers policy does on failure: logs the user in
 * with {@code allow}, answers 503 with {@code deny}; never a 500.
 */
class RedisOutageLoginIntegrationTests {

    @Test
    void logsInWhileRedisIsDownWhenTheLimitAllowsCallsOnFailure() {
        try (ConfigurableApplicationContext app = startWithRedisDown()) {
            SampleClient client = client(app);
            assertThat(client.login("alice").statusCode()).isEqualTo(200);
            assertThat(client.read(client.token("alice"), 1)).as("reads stay open too").isEqualTo(200);
        }
    }

    @Test
    void refusesTheLoginWith503WhileRedisIsDownWhenTheLimitDeniesCallsOnFailure() {
        try (ConfigurableApplicationContext app = startWithRedisDown("--limiter.policies.answers.on-failure=deny")) {
            HttpResponse<String> login = client(app).login("alice");
            assertThat(login.statusCode()).isEqualTo(503);
            assertThat(login.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(login.body()).contains("\"type\":\"https://limiter.github.io/problems/limiter-unavailable\"");
        }
    }

    /** An instance whose Redis was stopped before it started. */
    private static ConfigurableApplicationContext startWithRedisDown(String... extra) {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        String[] properties = { "--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + stopped.host(), "--spring.data.redis.port=" + stopped.port(),
                "--limiter.key-prefix=down-" + UUID.randomUUID() + ":" };
        String[] all = new String[properties.length + extra.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(extra, 0, all, properties.length, extra.length);
        return SpringApplication.run(SampleApplication.class, all);
    }

    private static SampleClient client(ConfigurableApplicationContext app) {
        return new SampleClient(((WebServerApplicationContext) app).getWebServer().getPort());
    }

}
