package io.github.limiter.consumer;

import java.time.Duration;

import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The HTTP example of docs/testing.md: {@link GreetingController}'s limit tested through MockMvc
 * on the test kit's embedded Redis, the 429 with its {@code Retry-After}, rate-limit headers and
 * problem detail included. MockMvc is built from the context, with spring-test alone.
 */
@SpringBootTest
@AutoConfigureLimiterRedis
class GreetingEndpointIntegrationTests {

    @Autowired
    WebApplicationContext context;

    @Autowired
    RateLimitTester rateLimits;

    MockMvc mvc;

    @BeforeEach
    void buildMockMvc() {
        this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
    }

    @Test
    void fourthGreetingInAMinuteIsAnswered429WithTheRateLimitHeaders() throws Exception {
        // the window is a minute of Redis's clock: start where it has room for the calls
        this.rateLimits.awaitRoom("greetings", Duration.ofSeconds(5));
        for (int i = 0; i < 3; i++) {
            this.mvc.perform(get("/hello/alice"))
                .andExpect(status().isOk())
                .andExpect(header().string("X-RateLimit-Remaining", String.valueOf(2 - i)));
        }

        this.mvc.perform(get("/hello/alice"))
            .andExpect(status().isTooManyRequests())
            .andExpect(header().exists("Retry-After"))
            .andExpect(header().string("RateLimit-Policy", "\"greetings\";q=3;w=60"))
            .andExpect(header().string("X-RateLimit-Limit", "3"))
            .andExpect(header().string("X-RateLimit-Remaining", "0"))
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.type").value("https://limiter.github.io/problems/rate-limit-exceeded"))
            .andExpect(jsonPath("$.limitId").value("greetings"));
    }

    @Test
    void exhaustedUserIsRefusedWhileOthersAreServed() throws Exception {
        this.rateLimits.awaitRoom("greetings", Duration.ofSeconds(5));
        this.rateLimits.exhaust("greetings", "alice");

        this.mvc.perform(get("/hello/alice")).andExpect(status().isTooManyRequests());
        this.mvc.perform(get("/hello/bob")).andExpect(status().isOk());
    }

}
