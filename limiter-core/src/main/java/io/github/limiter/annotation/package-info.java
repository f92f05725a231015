/**
 * The {@link io.github.limiter.annotation.RateLimit @RateLimit} annotation and what applies it: the
 * {@link io.github.limiter.annotation.RateLimitAdvisor}, whose interceptor resolves each method's
 * limits once (SpEL keys and costs parsed, every attribute checked) and decides each call. The
 * interceptor, the expressions and the checks are package-private.
 */
@NullMarked
package io.github.limiter.annotation;

import org.jspecify.annotations.NullMarked;
