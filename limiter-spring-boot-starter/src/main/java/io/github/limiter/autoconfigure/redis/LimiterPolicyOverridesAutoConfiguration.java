package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.autoconfigure.LimiterPolicyOverridesProperties;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.redis.RedisPolicyOverrides;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Policies changed while the application runs: the overrides are kept in Redis, each change is
 * announced to the other instances, which read it at once, and every instance reads them every
 * {@code limiter.policy-overrides.poll-interval} in case it missed an announcement. Each change this instance applies
 * is published as a {@link io.github.limiter.policy.RateLimitPolicyChangedEvent}. With Spring Cloud Context, a
 * configuration refresh of a policy changes it the same way. Runs after
 * {@link LimiterAutoConfiguration}, whose advisor holds the policies.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnBean({ RedisRateLimiter.class, RateLimitAdvisor.class })
@ConditionalOnBooleanProperty(name = "limiter.policy-overrides.enabled", matchIfMissing = true)
public final class LimiterPolicyOverridesAutoConfiguration {

    @Bean
    RedisPolicyOverrides limiterPolicyOverrides(RedisRateLimiter rateLimiter, LimiterProperties properties,
            RateLimitAdvisor advisor, ApplicationEventPublisher eventPublisher, LimiterTasks tasks) {
        advisor.overrides().addListener(eventPublisher::publishEvent);
        LimiterPolicyOverridesProperties settings = properties.getPolicyOverrides();
        // changes are announced on a channel of their own; the instances that subscribe to each
        // other (local-cache on) read them at once, the others at their next poll
        return new RedisPolicyOverrides(rateLimiter, advisor.overrides(), settings.getPollInterval(),
                settings.getRetention(), tasks.scheduler());
    }

    /** With Spring Cloud Context: a configuration refresh changes policies on every instance. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.cloud.context.environment.EnvironmentChangeEvent")
    static class RefreshConfiguration {

        @Bean
        PolicyRefreshListener limiterPolicyRefreshListener(Environment environment, RedisPolicyOverrides store,
                RateLimitAdvisor advisor) {
            return new PolicyRefreshListener(environment, store, advisor.overrides());
        }

    }

}
