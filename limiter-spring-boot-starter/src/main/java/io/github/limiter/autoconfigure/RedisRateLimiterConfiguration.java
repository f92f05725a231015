package io.github.limiter.autoconfigure;

import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis-backed {@link RateLimiter}, on the application's one {@link RedisConnectionFactory}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
class RedisRateLimiterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimiter rateLimiter(RedisConnectionFactory connectionFactory, LimiterProperties properties,
            ApplicationEventPublisher eventPublisher) {
        // A template of its own, so the application's template customisations cannot change how
        // script arguments and replies are serialised.
        return new RedisRateLimiter(new StringRedisTemplate(connectionFactory), properties.getKeyPrefix(),
                eventPublisher);
    }

}
