/**
 * Test support for applications that use limiter: a real embedded Redis in the Spring test context
 * ({@link io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis}), the limiter's state reset
 * after each test, and a {@link io.github.limiter.test.autoconfigure.RateLimitTester} to exhaust, ban,
 * inspect and reset keys.
 */
@NullMarked
package io.github.limiter.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
