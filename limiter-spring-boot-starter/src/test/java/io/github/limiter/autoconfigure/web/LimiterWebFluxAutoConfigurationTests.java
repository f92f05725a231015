package io.github.limiter.autoconfigure.web;

import java.net.URI;

import io.github.limiter.Decision;
import io.github.limiter.RateLimiter;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
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
            assertThat(context).as("functional endpoints' refusals").hasSingleBean(RateLimitWebExceptionHandler.class);
            assertThat(context).hasSingleBean(RateLimitHeadersWebFilter.class);
        });
    }

    @Test
    void ordersTheRuleFiltersAroundSpringSecuritysWebFilter() {
        new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterWebFluxAutoConfiguration.class))
            .withBean(RateLimiter.class, () -> (requests) -> Decision.allow(requests.get(0).limitId(), "",
                    requests.get(0).limit().max(), 1, requests.get(0).limit().window()))
            .withPropertyValues("limiter.web.rules.api.paths=/api/**", "limiter.web.rules.api.window=1m",
                    "limiter.web.rules.api.max=5")
            .run((context) -> {
                assertThat(context.getBean("limiterRequestRuleWebFilter", RequestRuleWebFilter.class).getOrder())
                    .isEqualTo(-110);
                assertThat(context.getBean("limiterAuthenticatedRequestRuleWebFilter", RequestRuleWebFilter.class)
                    .getOrder()).isEqualTo(-90);
            });
        new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterWebFluxAutoConfiguration.class))
            .withBean(RateLimiter.class, () -> (requests) -> Decision.allow(requests.get(0).limitId(), "",
                    requests.get(0).limit().max(), 1, requests.get(0).limit().window()))
            .withPropertyValues("limiter.web.rules.api.paths=/api/**", "limiter.web.rules.api.key=#header['x']",
                    "limiter.web.rules.api.window=1m", "limiter.web.rules.api.max=5")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageStartingWith("Invalid rate-limit rule: limiter.web.rules.api.key = '#header['x']' reads "
                        + "#header, which is not a variable of a request rule"));
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
