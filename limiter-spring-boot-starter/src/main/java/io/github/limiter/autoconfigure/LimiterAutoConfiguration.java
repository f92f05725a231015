package io.github.limiter.autoconfigure;

import io.github.limiter.RateLimiter;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration for limiter: the {@code limiter.*} properties, and the advisor that applies
 * {@code @RateLimit} whenever there is a {@link RateLimiter} (the Redis-backed one of
 * {@code redis.LimiterRedisAutoConfiguration}, which runs first, or
 * the application's), with its reactive counterpart. Every bean backs off for one the application
 * defines; {@code limiter.enabled=false} switches it all off.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(RateLimiter.class)
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LimiterProperties.class)
@Import({ RateLimitAdvisorConfiguration.class, ReactiveRateLimiterConfiguration.class })
public final class LimiterAutoConfiguration {

}
