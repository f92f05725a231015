/**
 * Spring Boot auto-configuration for limiter: the {@code limiter.*} properties users bind, and the
 * advisor that applies {@code @RateLimit} with whichever limiter the context has.
 */
@NullMarked
package io.github.limiter.autoconfigure;

import org.jspecify.annotations.NullMarked;
