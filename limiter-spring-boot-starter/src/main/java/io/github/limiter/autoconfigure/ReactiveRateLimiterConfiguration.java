package io.github.limiter.autoconfigure;

import io.github.limiter.RateLimiter;
import io.github.limiter.reactive.ReactiveRateLimiter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link RateLimiter}'s decisions as {@code Mono}s, where Reactor is on the classpath.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "reactor.core.publisher.Mono")
@ConditionalOnBean(RateLimiter.class)
class ReactiveRateLimiterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReactiveRateLimiter reactiveRateLimiter(RateLimiter rateLimiter) {
        return new ReactiveRateLimiter(rateLimiter);
    }

}
