/**
 * The Redis engine: Lua scripts and their execution. Internal API; it may change in any release.
 */
@NullMarked
package io.github.limiter.redis;

import org.jspecify.annotations.NullMarked;
