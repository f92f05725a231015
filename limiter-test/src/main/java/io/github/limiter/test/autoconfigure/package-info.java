/**
 * Test support for applications that use limiter: a real embedded Redis in the Spring test context
 * ({@link io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis}).
 */
@NullMarked
package io.github.limiter.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
