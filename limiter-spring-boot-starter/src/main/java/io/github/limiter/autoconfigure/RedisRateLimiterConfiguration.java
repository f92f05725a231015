package io.github.limiter.autoconfigure;

import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.redis.DecisionEvents;
import io.github.limiter.redis.RecentEvents;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The Redis-backed {@link RateLimiter}, on a connection of its own to the Redis of the
 * application's one {@link RedisConnectionFactory}, told about its decisions by every
 * {@link RateLimitListener} bean: Spring events and recent events here, meters and HTTP headers
 * where those are configured, and any of the application's.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
class RedisRateLimiterConfiguration {

    @Bean
    LimiterRedisConnection limiterRedisConnection(RedisConnectionFactory connectionFactory,
            LimiterProperties properties) {
        return new LimiterRedisConnection(connectionFactory, properties.getRedis());
    }

    @Bean
    @ConditionalOnMissingBean
    RateLimiter rateLimiter(LimiterRedisConnection connection, LimiterProperties properties,
            ObjectProvider<RateLimitListener> listeners) {
        // A template of its own, so the application's template customisations cannot change how
        // script arguments and replies are serialised.
        return new RedisRateLimiter(connection.template(), properties.getKeyPrefix(),
                listeners.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    DecisionEvents rateLimitDecisionEvents(ApplicationEventPublisher eventPublisher) {
        return new DecisionEvents(eventPublisher);
    }

    @Bean
    @ConditionalOnMissingBean
    RecentEvents rateLimitRecentEvents(LimiterRedisConnection connection, LimiterProperties properties) {
        return new RecentEvents(connection.template(), properties.getKeyPrefix());
    }

}
