/**
 * Public API of limiter: the {@link io.github.limiter.RateLimiter} for programmatic use, the
 * {@link io.github.limiter.Decision} it returns, and the
 * {@link io.github.limiter.RateLimitExceededException} thrown for calls over a limit.
 */
@NullMarked
package io.github.limiter;

import org.jspecify.annotations.NullMarked;
