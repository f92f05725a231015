package io.github.limiter.autoconfigure;

import io.github.limiter.redis.RedisRateLimiterBuilder;

/**
 * Adjusts the builder of the auto-configured {@link io.github.limiter.redis.RedisRateLimiter}
 * after the starter has set it from {@code limiter.*}, as Spring Boot's
 * {@code LettuceClientConfigurationBuilderCustomizer} does for its client: every bean of this type
 * is applied, in order, just before the limiter is built.
 *
 * <pre class="code">
 * &#64;Bean
 * RedisRateLimiterBuilderCustomizer fewerCoalescedDecisions() {
 *     return (builder) -&gt; builder.maxBatch(16);
 * }
 * </pre>
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface RedisRateLimiterBuilderCustomizer {

    /**
     * Customizes the builder.
     * @param builder the builder, set from the application's {@code limiter.*} properties
     */
    void customize(RedisRateLimiterBuilder builder);

}
