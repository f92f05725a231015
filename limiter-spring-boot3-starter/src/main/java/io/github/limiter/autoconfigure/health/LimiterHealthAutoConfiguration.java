package io.github.limiter.autoconfigure.health;

import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.internal.RedisServerSettings;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@code limiter} health indicator, when Spring Boot's health support is on the classpath and
 * the limiter is Redis-backed; {@code management.health.limiter.enabled=false} switches it off.
 * Where Spring Boot's Redis indicator would take the whole health down while every limit fails
 * open, the start says so ({@link RedisHealthAdvice}).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(RedisRateLimiter.class)
@ConditionalOnEnabledHealthIndicator("limiter")
public final class LimiterHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "limiterHealthIndicator")
    LimiterHealthIndicator limiterHealthIndicator(RedisRateLimiter rateLimiter,
            ObjectProvider<RateLimitAdvisor> advisor, ObjectProvider<RedisServerSettings> settings) {
        return new LimiterHealthIndicator(rateLimiter, advisor, settings);
    }

    @Bean
    static SmartInitializingSingleton limiterRedisHealthAdvice(BeanFactory beanFactory, Environment environment,
            ObjectProvider<RateLimitAdvisor> advisor) {
        return RedisHealthAdvice.atStart(beanFactory, environment, advisor);
    }

}
