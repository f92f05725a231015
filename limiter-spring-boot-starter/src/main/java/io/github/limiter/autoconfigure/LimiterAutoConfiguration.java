package io.github.limiter.autoconfigure;

import io.github.limiter.RateLimiter;
import io.github.limiter.autoconfigure.redis.PolicyOverridesConfiguration;
import io.github.limiter.autoconfigure.redis.RedisRateLimiterConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration for limiter: a Redis-backed {@link RateLimiter} when the application has one
 * {@code RedisConnectionFactory}, and the advisor that applies {@code @RateLimit} whenever there is
 * a {@link RateLimiter}. Every bean backs off for one the application defines;
 * {@code limiter.enabled=false} switches it all off.
 *
 * @since 0.1.0
 */
// by name, so that one class serves every Spring Boot generation: Boot 4's, then Boot 3's
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnClass(RateLimiter.class)
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LimiterProperties.class)
@Import({ RedisRateLimiterConfiguration.class, RateLimitAdvisorConfiguration.class,
        PolicyOverridesConfiguration.class, ReactiveRateLimiterConfiguration.class })
public final class LimiterAutoConfiguration {

}
