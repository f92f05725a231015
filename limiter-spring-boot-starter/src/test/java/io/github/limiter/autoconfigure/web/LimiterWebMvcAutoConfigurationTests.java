package io.github.limiter.autoconfigure.web;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterWebMvcAutoConfigurationTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LimiterWebMvcAutoConfiguration.class));

    @Test
    void answersRateLimitExceptionsInServletApplications() {
        this.runner.run(context -> assertThat(context).hasSingleBean(RateLimitExceptionHandler.class));
    }

    @Test
    void backsOffWithoutSpringMvc() {
        this.runner.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class));
    }

    @Test
    void backsOffOutsideWebApplications() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LimiterWebMvcAutoConfiguration.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class));
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class));
    }

    @Test
    void usesTheApplicationsHandlerBean() {
        this.runner.withUserConfiguration(OwnHandler.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimitExceptionHandler.class);
            assertThat(context).hasBean("myHandler");
        });
    }

    @Test
    void roundsRetryAfterUpToWholeSecondsAndAtLeastOne() {
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(java.time.Duration.ZERO)).isEqualTo(1);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(java.time.Duration.ofMillis(1))).isEqualTo(1);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(java.time.Duration.ofMillis(1000))).isEqualTo(1);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(java.time.Duration.ofMillis(1001))).isEqualTo(2);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(java.time.Duration.ofSeconds(59))).isEqualTo(59);
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnHandler {

        @Bean
        RateLimitExceptionHandler myHandler() {
            return new RateLimitExceptionHandler(org.springframework.http.HttpStatus.FORBIDDEN,
                    io.github.limiter.autoconfigure.LimiterProperties.Web.Headers.BOTH);
        }

    }

}
