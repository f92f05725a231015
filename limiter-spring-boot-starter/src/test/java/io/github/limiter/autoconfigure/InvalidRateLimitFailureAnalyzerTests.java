package io.github.limiter.autoconfigure;

import io.github.limiter.InvalidRateLimitException;
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
        FailureAnalysis analysis = analyze(BadApplication.class);
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).isEqualTo("Invalid @RateLimit on "
                + BadService.class.getName() + ".answer(long, String): window = '1 minute' is not a duration; "
                + "use a number with a unit (500ms, 60s, 1m, 2h, 1d), units together (1h30m) or an ISO-8601 duration (PT1M)");
        assertThat(analysis.getAction()).contains("'window' attribute");
    }

    @Test
    void aPublicFinalMethodIsReportedWithTheWayToMakeItOverridable() {
        // Spring Boot proxies beans by class: a final method would be called past the proxy
        FailureAnalysis analysis = analyze(FinalApplication.class);
        assertThat(analysis.getDescription()).isEqualTo("Invalid @RateLimit on " + FinalService.class.getName()
                + ".answer(String): method = 'final' can never apply: it is final, so Spring's class-based (CGLIB) "
                + "proxy cannot override it, and no interface of the class declares the method for an "
                + "interface-based proxy; calls to it would never be limited. Remove final from the method.");
        assertThat(analysis.getAction()).isEqualTo("Make the method named above overridable: neither it nor its "
                + "class final (in Kotlin, open, or opened by the kotlin-spring compiler plugin).");
    }

    @Test
    void anInvalidUrlRuleIsReportedWithThePropertyToCorrect() {
        FailureAnalysis analysis = new InvalidRateLimitFailureAnalyzer().analyze(new IllegalStateException(
                new InvalidRateLimitException("Invalid rate-limit rule: limiter.web.rules.login.paths = '' is required",
                        "paths", "", null)));
        assertThat(analysis.getAction())
            .isEqualTo("Correct limiter.web.rules.login.paths, named above, in the application's configuration.");
    }

    private static FailureAnalysis analyze(Class<?> application) {
        SpringApplication spring = new SpringApplication(application);
        spring.setWebApplicationType(WebApplicationType.NONE);
        Throwable failure = catchThrowable(() -> spring.run("--spring.data.redis.port=1", "--spring.main.banner-mode=off"));
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = new InvalidRateLimitFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("analysis of %s", failure).isNotNull();
        return analysis;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class BadApplication {

        @Bean
        BadService badService() {
            return new BadService();
        }

    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class FinalApplication {

        @Bean
        FinalService finalService() {
            return new FinalService();
        }

    }

    static class FinalService {

        @RateLimit(key = "#userId", window = "1m", max = 20)
        public final String answer(String userId) {
            return "answer";
        }

    }

    static class BadService {

        @RateLimit(key = "#userId", window = "1 minute", max = 20)
        public String answer(long questionId, String userId) {
            return "answer";
        }

    }

}
