package io.github.limiter.autoconfigure;

import io.github.limiter.annotation.RateLimit;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class InvalidRateLimitFailureAnalyzerTests {

    @Test
    void reportsTheClassMethodAttributeAndValue() {
        SpringApplication application = new SpringApplication(BadApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        Throwable failure = catchThrowable(
                () -> application.run("--spring.data.redis.port=1", "--spring.main.banner-mode=off"));
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = new InvalidRateLimitFailureAnalyzer().analyze(failure);
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).isEqualTo("Invalid @RateLimit on "
                + BadService.class.getName() + ".answer(long, String): window = '1 minute' is not a duration; "
                + "use a number with a unit (500ms, 60s, 1m, 2h, 1d), units together (1h30m) or an ISO-8601 duration (PT1M)");
        assertThat(analysis.getAction()).contains("'window' attribute");
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class BadApplication {

        @Bean
        BadService badService() {
            return new BadService();
        }

    }

    static class BadService {

        @RateLimit(key = "#userId", window = "1 minute", max = 20)
        public String answer(long questionId, String userId) {
            return "answer";
        }

    }

}
