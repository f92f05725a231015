package io.github.limiter.sample.answers;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.github.limiter.sample.SampleApplication;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AnswerControllerIntegrationTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private ApplicationContext context;

    @Autowired
    private StringRedisTemplate redis;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> RedisServerExtension.redis().host());
        registry.add("spring.data.redis.port", () -> RedisServerExtension.redis().port());
    }

    @Test
    void twentyOneReadsByOneUserInAMinuteGetTwentyAnswersAndOne429() throws Exception {
        String user = "reader-" + UUID.randomUUID();
        List<Integer> statuses = new ArrayList<>();
        for (int read = 1; read <= 20; read++) {
            HttpResponse<String> response = answer(1 + read % 3, user);
            statuses.add(response.statusCode());
            assertThat(response.body()).contains("\"questionId\":" + (1 + read % 3));
        }
        assertThat(statuses).containsOnly(200).hasSize(20);

        HttpResponse<String> rejected = answer(1, user);
        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
        assertThat(rejected.body()).contains("\"title\":\"Too Many Requests\"");

        assertThat(this.redis.getExpire("limiter:{AnswerController.answer:" + user + "}")).isBetween(1L, 60L);
        assertThat(answer(1, "other-" + UUID.randomUUID()).statusCode()).isEqualTo(200);
    }

    @Test
    void usesTheConfiguredRedisRatherThanStartingItsOwn() {
        assertThat(this.context.getBeansOfType(EmbeddedRedis.class)).isEmpty();
    }

    @Test
    void answersUnknownQuestionsWith404() throws Exception {
        assertThat(answer(99, "reader-" + UUID.randomUUID()).statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> answer(long questionId, String user) throws Exception {
        URI uri = URI.create("http://localhost:" + this.port + "/questions/" + questionId + "/answer?userId=" + user);
        return this.http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

}
