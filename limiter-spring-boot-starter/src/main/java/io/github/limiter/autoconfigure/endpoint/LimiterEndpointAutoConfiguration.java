package io.github.limiter.autoconfigure.endpoint;

import io.github.limiter.RateLimitAdmin;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.redis.RedisPolicyOverrides;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.PropertiesEndpointAccessResolver;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@code ratelimits} actuator endpoint, with Spring Boot Actuator on the classpath, once the
 * endpoint is exposed ({@code management.endpoints.web.exposure.include}). Its writes are off unless
 * {@code management.endpoint.ratelimits.access=unrestricted}; a web application that turns them on
 * and exposes the endpoint on the web without Spring Security is warned at start.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({ RateLimitAdvisor.class, RateLimitAdmin.class, LimiterProperties.class })
@ConditionalOnAvailableEndpoint(RateLimitsEndpoint.class)
public final class LimiterEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitsEndpoint rateLimitsEndpoint(RateLimitAdvisor advisor, RateLimitAdmin admin,
            ObjectProvider<RedisPolicyOverrides> policyOverrides) {
        return new RateLimitsEndpoint(advisor, admin, policyOverrides.getIfAvailable());
    }

    // Spring Boot's endpoint discoverers apply every advisor bean to the operations they find
    @Bean
    OperationInvokerAdvisor rateLimitsRequesterAdvisor() {
        return new RequesterAdvisor();
    }

    @Bean
    @ConditionalOnWebApplication
    @ConditionalOnAvailableEndpoint(endpoint = RateLimitsEndpoint.class, exposure = EndpointExposure.WEB)
    UnsecuredWritesWarning rateLimitsUnsecuredWritesWarning(ObjectProvider<EndpointAccessResolver> access,
            Environment environment, ListableBeanFactory beans) {
        return new UnsecuredWritesWarning(
                access.getIfAvailable(() -> new PropertiesEndpointAccessResolver(environment)), beans);
    }

}
