/**
 * Applies {@link io.github.limiter.annotation.RateLimit @RateLimit} to Spring beans, as Spring's
 * {@code cache.interceptor} applies {@code @Cacheable}: the
 * {@link io.github.limiter.interceptor.RateLimitAdvisor} finds a bean's limited methods, resolves
 * each method's limits once (SpEL keys and costs parsed, every attribute checked), and its
 * interceptor decides each call, whatever the method returns, and settles costs known after the
 * call. Everything but the advisor and the blank-key setting is package-private.
 */
@NullMarked
package io.github.limiter.interceptor;

import org.jspecify.annotations.NullMarked;
