package io.github.limiter.autoconfigure.web;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.autoconfigure.LimiterWebProperties;
import io.github.limiter.autoconfigure.internal.TrustedProxies;
import io.github.limiter.interceptor.RateLimitAdvisor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Answers {@link RateLimitExceededException} in servlet web applications with HTTP 429 (or
 * {@code limiter.web.ban-status} for banned keys), a {@code Retry-After} header and an RFC 9457
 * problem detail typed by {@link RateLimitProblemTypes} (under
 * {@code limiter.web.problem-type-base}), unless the application handles the exception itself; and
 * adds rate-limit headers ({@code limiter.web.headers}) to the responses of limited endpoints,
 * including handlers that return a {@code CompletableFuture} or a reactive type.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ DispatcherServlet.class, RateLimitExceededException.class })
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LimiterProperties.class)
public final class LimiterWebMvcAutoConfiguration {

    /** Spring Boot's default order of Spring Security's filter chain, in Spring Boot 3.5 and 4 alike. */
    static final int SECURITY_FILTER_ORDER = -100;

    @Bean
    @ConditionalOnMissingBean
    RateLimitExceptionHandler rateLimitExceptionHandler(LimiterProperties properties) {
        return RateLimitExceptionHandler.of(properties.getWeb());
    }

    /**
     * Warns at start where {@code #clientIp} can be chosen by a client, or where the server's
     * forwarded headers and {@code limiter.web.trusted-proxies} contradict each other
     * ({@link ForwardedClientAddresses}).
     */
    @Bean
    static SmartInitializingSingleton limiterForwardedClientAddressesCheck(Environment environment,
            ObjectProvider<RateLimitAdvisor> advisor, ObjectProvider<LimiterProperties> properties) {
        return ForwardedClientAddresses.atStart(environment, advisor, properties,
                ClassUtils.isPresent("org.apache.catalina.valves.RemoteIpValve",
                        LimiterWebMvcAutoConfiguration.class.getClassLoader()));
    }

    /** The rules of {@code limiter.web.rules}, checked and resolved at start. */
    @Bean
    UrlRules limiterUrlRules(LimiterProperties properties, ObjectProvider<RateLimitAdvisor> advisor) {
        return UrlRules.configured(properties, advisor);
    }

    /** The rules that apply before Spring Security's filter chain: those that do not read {@code #principal}. */
    @Bean
    FilterRegistrationBean<RequestRuleFilter> limiterRequestRuleFilter(UrlRules limiterUrlRules,
            LimiterProperties properties, Environment environment) {
        return ruleFilter(limiterUrlRules.stage(false), properties, securityFilterOrder(environment) - 10);
    }

    /** The rules that read {@code #principal}, after Spring Security's filter chain authenticated the request. */
    @Bean
    FilterRegistrationBean<RequestRuleFilter> limiterAuthenticatedRequestRuleFilter(UrlRules limiterUrlRules,
            LimiterProperties properties, Environment environment) {
        return ruleFilter(limiterUrlRules.stage(true), properties, securityFilterOrder(environment) + 10);
    }

    private static FilterRegistrationBean<RequestRuleFilter> ruleFilter(UrlRules rules, LimiterProperties properties,
            int order) {
        LimiterWebProperties web = properties.getWeb();
        FilterRegistrationBean<RequestRuleFilter> registration = new FilterRegistrationBean<>(
                new RequestRuleFilter(rules, RateLimitExceptionHandler.of(web), web.getHeaders(),
                        web.getClientIpv6Prefix(), TrustedProxies.of(web.getTrustedProxies())));
        registration.setOrder(order);
        registration.setEnabled(!rules.isEmpty());
        return registration;
    }

    /** Where Spring Security's filter chain is: {@code spring.security.filter.order}, -100 unless set. */
    static int securityFilterOrder(Environment environment) {
        return environment.getProperty("spring.security.filter.order", Integer.class, SECURITY_FILTER_ORDER);
    }

    // before the handler runs: the client's address for #clientIp, and the listener that puts the
    // request's decisions in the rate-limit headers
    @Bean
    WebMvcConfigurer limiterWebMvcConfigurer(LimiterProperties properties) {
        return new WebMvcConfigurer() {

            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new ClientAddressInterceptor(properties.getWeb().getClientIpv6Prefix(),
                        TrustedProxies.of(properties.getWeb().getTrustedProxies())));
                registry.addInterceptor(new RateLimitHeadersInterceptor(properties.getWeb().getHeaders()));
            }

        };
    }

}
