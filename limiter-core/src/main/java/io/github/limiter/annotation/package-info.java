/**
 * The {@link io.github.limiter.annotation.RateLimit @RateLimit} annotation.
 */
@NullMarked
package io.github.limiter.annotation;

import org.jspecify.annotations.NullMarked;
