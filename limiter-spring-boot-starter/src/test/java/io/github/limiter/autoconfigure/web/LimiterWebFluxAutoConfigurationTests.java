package io.github.limiter.autoconfigure.web;

import java.net.URI;

import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.DispatcherHandler;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterWebFluxAutoConfigurationTests {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LimiterWebFluxAutoConfiguration.class));

    @Test
    void answersRateLimitExceptionsAndWritesHeadersInReactiveApplications() {
        this.runner.run(context -> {
            assertThat(context).hasSingleBean(RateLimitExceptionHandler.class);
            assertThat(context).hasSingleBean(RateLimitHeadersWebFilter.class);
        });
    }

    @Test
    void commitsResponsesOnTheirEventLoopWhenServedByReactorNetty() {
        this.runner.run(context -> assertThat(context).hasSingleBean(EventLoopCommitWebFilter.class));
        this.runner.withClassLoader(new FilteredClassLoader(HttpServer.class))
            .run(context -> assertThat(context).doesNotHaveBean(EventLoopCommitWebFilter.class)
                .hasSingleBean(RateLimitHeadersWebFilter.class));
    }

    @Test
    void registersTheAdapterOfLimitedFuturesWithEveryReactiveAdapterRegistry() {
        // its effect, headers on a CompletableFuture's answer, is ReactiveWebIntegrationTests'
        this.runner.run(context -> assertThat(context).hasBean("limiterFutureAdapterRegistration"));
    }

    @Test
    void backsOffWithoutSpringWebFlux() {
        this.runner.withClassLoader(new FilteredClassLoader(DispatcherHandler.class)).run(context -> {
            assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class);
            assertThat(context).doesNotHaveBean(RateLimitHeadersWebFilter.class);
        });
    }

    @Test
    void backsOffInServletApplications() {
        new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(LimiterWebFluxAutoConfiguration.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitHeadersWebFilter.class));
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitHeadersWebFilter.class));
    }

    @Test
    void usesTheApplicationsBeans() {
        this.runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimitExceptionHandler.class).hasBean("myHandler");
            assertThat(context).hasSingleBean(RateLimitHeadersWebFilter.class).hasBean("myFilter");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {

        @Bean
        RateLimitExceptionHandler myHandler() {
            return new RateLimitExceptionHandler(HttpStatus.FORBIDDEN,
                    Headers.NONE,
                    URI.create("https://example.com/problems/"));
        }

        @Bean
        RateLimitHeadersWebFilter myFilter() {
            return new RateLimitHeadersWebFilter(Headers.IETF);
        }

    }

}
