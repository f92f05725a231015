package io.github.limiter;

import java.time.Duration;

/**
 * Decides whether a call under a named limit may proceed, for code that does not use
 * {@link io.github.limiter.annotation.RateLimit @RateLimit}.
 *
 * <p>The Spring Boot starter provides one as a bean, backed by Redis: every decision is one atomic
 * Lua script, so all application instances sharing the Redis share the counts.
 *
 * <pre class="code">
 * Decision decision = rateLimiter.tryAcquire("exports", userId, 5, Duration.ofMinutes(1));
 * if (!decision.allowed()) {
 *     throw new RateLimitExceededException("exports", userId, decision);
 * }
 * </pre>
 *
 * @since 0.1.0
 */
public interface RateLimiter {

    /**
     * Counts one call for {@code key} under the limit {@code limitId} and decides whether it may
     * proceed. A rejected call is not counted.
     * @param limitId the limit's id, such as {@code "AnswerController.answer"}; not blank and
     * without {@code '{'} or {@code '}'}
     * @param key the key the limit applies to, such as a user id; the empty string for one counter
     * shared by every caller
     * @param max the calls allowed per window, at least 1
     * @param window the window's length, at least one millisecond and a whole number of
     * milliseconds
     * @return the decision
     * @throws IllegalArgumentException if an argument is invalid
     */
    Decision tryAcquire(String limitId, String key, long max, Duration window);

}
