/**
 * The limiter's side of Redis in the starter: its own connection to the application's Redis
 * servers (Lettuce or Jedis, following Sentinel failovers), the limiter built on it, its background
 * tasks, and the policy overrides kept in Redis. Only its two auto-configurations are public.
 */
@NullMarked
package io.github.limiter.autoconfigure.redis;

import org.jspecify.annotations.NullMarked;
