package io.github.limiter.autoconfigure;

import io.github.limiter.redis.LocalRefusalsSubscription;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps every instance subscribed to the unbans and resets of the others, so that keys refused from
 * memory are forgotten everywhere at once: a listener container on the limiter's connection, and
 * the subscription that starts it, retries until it is subscribed, and reports its state.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBean(RedisRateLimiter.class)
@ConditionalOnBooleanProperty(name = "limiter.local-cache.enabled", matchIfMissing = true)
class InvalidationConfiguration {

    static final String CONTAINER = "limiterInvalidationListenerContainer";

    /**
     * Not a default candidate, so that an application's own listener container, injected by type,
     * stays the only one. The subscription starts it: as a plain lifecycle bean, a Redis that is
     * down would fail the application's start, and a failed start would never be tried again.
     */
    @Bean(name = CONTAINER, defaultCandidate = false)
    InvalidationListenerContainer limiterInvalidationListenerContainer(LimiterRedisConnection connection,
            LimiterProperties properties) {
        InvalidationListenerContainer container = new InvalidationListenerContainer();
        container.setConnectionFactory(connection.subscriptionConnectionFactory());
        container.startWhen(connection::isOpen);
        LimiterRedisProperties redis = properties.getRedis();
        container.setMaxSubscriptionRegistrationWaitingTime(
                redis.getConnectTimeout().toMillis() + redis.getTimeout().toMillis());
        return container;
    }

    @Bean
    LocalRefusalsSubscription limiterLocalRefusalsSubscription(
            @Qualifier(CONTAINER) InvalidationListenerContainer container, RedisRateLimiter rateLimiter,
            LimiterRedisConnection connection, LimiterProperties properties, LimiterTasks tasks) {
        LocalRefusalsSubscription subscription = new LocalRefusalsSubscription(container, rateLimiter,
                LimiterRedisConnection.reconnectBackOff(properties.getRedis()), tasks.scheduler());
        connection.onPubSubConnectionLost(subscription::connectionLost);
        container.whenAborted(subscription::subscriptionAborted);
        container.whenReady(subscription::startAgain);
        connection.whenOpen(container::connectionOpened);
        return subscription;
    }

}
