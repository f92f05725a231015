/**
 * Interception of {@link io.github.limiter.annotation.RateLimit @RateLimit} methods: an advisor whose
 * per-method settings are resolved and validated once, then cached.
 */
@NullMarked
package io.github.limiter.aop;

import org.jspecify.annotations.NullMarked;
