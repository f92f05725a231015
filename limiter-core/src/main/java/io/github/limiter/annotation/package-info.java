/**
 * The annotations an application writes: {@link io.github.limiter.annotation.RateLimit @RateLimit}
 * and its container {@link io.github.limiter.annotation.RateLimits @RateLimits}. What applies them
 * is {@link io.github.limiter.interceptor}.
 */
@NullMarked
package io.github.limiter.annotation;

import org.jspecify.annotations.NullMarked;
