/**
 * Sends the limiter's script calls over each Redis client (Lettuce's asynchronous commands, Jedis
 * on threads of its own, or any client through the template), with {@code EVALSHA} and a reload
 * on {@code NOSCRIPT}, the limiter's deadlines, and the kinds its failures are named by. Internal:
 * imported only by the limiter, the starters and the test kits, and left out of the Javadoc.
 */
@NullMarked
package io.github.limiter.internal.transport;

import org.jspecify.annotations.NullMarked;
