package io.github.limiter.autoconfigure.web;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.autoconfigure.LimiterWebProperties;
import io.github.limiter.autoconfigure.internal.TrustedProxies;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.DispatcherHandler;

/**
 * The same HTTP answers as {@link LimiterWebMvcAutoConfiguration}, for reactive web applications
 * (Spring WebFlux): {@link RateLimitExceededException} answered with 429 (or
 * {@code limiter.web.ban-status} for banned keys), a {@code Retry-After} header and an RFC 9457
 * problem detail, unless the application handles the exception itself; and the rate-limit headers
 * ({@code limiter.web.headers}) on the responses of limited endpoints, allowed or refused, whether
 * they return a {@code Mono}, a {@code Flux} or a {@code CompletableFuture}. Served by
 * Reactor Netty, responses are committed on their connection's event loop, so that a kept-alive
 * connection is never left unread after a limited request (see {@code EventLoopCommitWebFilter}).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({ DispatcherHandler.class, RateLimitExceededException.class })
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LimiterProperties.class)
public final class LimiterWebFluxAutoConfiguration {

    /** The order of Spring Security's {@code WebFilterChainProxy} in Spring WebFlux: -100. */
    static final int SECURITY_WEB_FILTER_ORDER = -100;

    @Bean
    @ConditionalOnMissingBean
    RateLimitExceptionHandler rateLimitExceptionHandler(LimiterProperties properties) {
        return RateLimitExceptionHandler.of(properties.getWeb());
    }

    /** Answers the refusals of limited beans that functional endpoints call, which no controller advice sees. */
    @Bean
    RateLimitWebExceptionHandler limiterWebExceptionHandler(RateLimitExceptionHandler rateLimitExceptionHandler) {
        return new RateLimitWebExceptionHandler(rateLimitExceptionHandler);
    }

    @Bean
    @ConditionalOnMissingBean
    RateLimitHeadersWebFilter rateLimitHeadersWebFilter(LimiterProperties properties) {
        return new RateLimitHeadersWebFilter(properties.getWeb().getHeaders());
    }

    @Bean
    @ConditionalOnMissingBean
    ClientAddressWebFilter limiterClientAddressWebFilter(LimiterProperties properties) {
        return new ClientAddressWebFilter(properties.getWeb().getClientIpv6Prefix(),
                TrustedProxies.of(properties.getWeb().getTrustedProxies()));
    }

    /** The rules of {@code limiter.web.rules}, checked and resolved at start. */
    @Bean
    UrlRules limiterUrlRules(LimiterProperties properties, ObjectProvider<RateLimitAdvisor> advisor) {
        return UrlRules.configured(properties, advisor);
    }

    /** The rules that apply before Spring Security's web filter: those that do not read {@code #principal}. */
    @Bean
    RequestRuleWebFilter limiterRequestRuleWebFilter(UrlRules limiterUrlRules, LimiterProperties properties) {
        return ruleFilter(limiterUrlRules.stage(false), properties, SECURITY_WEB_FILTER_ORDER - 10);
    }

    /** The rules that read {@code #principal}, after Spring Security's web filter authenticated the request. */
    @Bean
    RequestRuleWebFilter limiterAuthenticatedRequestRuleWebFilter(UrlRules limiterUrlRules,
            LimiterProperties properties) {
        return ruleFilter(limiterUrlRules.stage(true), properties, SECURITY_WEB_FILTER_ORDER + 10);
    }

    private static RequestRuleWebFilter ruleFilter(UrlRules rules, LimiterProperties properties, int order) {
        LimiterWebProperties web = properties.getWeb();
        return new RequestRuleWebFilter(rules, RateLimitExceptionHandler.of(web), web.getClientIpv6Prefix(),
                TrustedProxies.of(web.getTrustedProxies()), order);
    }

    /**
     * Warns at start where the server's forwarded headers and {@code limiter.web.trusted-proxies}
     * contradict each other ({@link ForwardedClientAddresses}).
     */
    @Bean
    static SmartInitializingSingleton limiterForwardedClientAddressesCheck(Environment environment,
            ObjectProvider<RateLimitAdvisor> advisor, ObjectProvider<LimiterProperties> properties) {
        return ForwardedClientAddresses.atStart(environment, advisor, properties, false);
    }

    // a limited handler's CompletableFuture, adapted by WebFlux, tells the request's headers its decision
    @Bean
    static BeanPostProcessor limiterFutureAdapterRegistration() {
        return new BeanPostProcessor() {

            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof ReactiveAdapterRegistry registry) {
                    RateLimitAdvisor.registerFutureAdapter(registry);
                }
                return bean;
            }

        };
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HttpServer.class)
    static class ReactorNettyConfiguration {

        @Bean
        EventLoopCommitWebFilter limiterEventLoopCommitWebFilter() {
            return new EventLoopCommitWebFilter();
        }

    }

}
