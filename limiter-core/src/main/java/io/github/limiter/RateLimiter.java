package io.github.limiter;

import java.time.Duration;

/**
 * Decides whether a call under a named limit may proceed, for code that does not use
 * {@link io.github.limiter.annotation.RateLimit @RateLimit}, and inspects or clears a key's state
 * for admin tools.
 *
 * <p>The Spring Boot starter provides one as a bean, backed by Redis: every decision is one atomic
 * Lua script, so all application instances sharing the Redis share the counts and the bans.
 *
 * <pre class="code">
 * Decision decision = rateLimiter.tryAcquire("exports", userId, 5, Duration.ofMinutes(1));
 * if (!decision.allowed()) {
 *     throw new RateLimitExceededException("exports", userId, decision);
 * }
 * </pre>
 *
 * <p>Limit ids are not blank and have no {@code '{'}, {@code '}'}, {@code ':'} or whitespace.
 * A key is any string; the empty string is one key shared by every caller.
 *
 * @since 0.1.0
 */
public interface RateLimiter {

    /**
     * Counts one call for {@code key} under the limit {@code limitId} and decides whether it may
     * proceed. A rejected call is not counted. A call past {@code max} on a limit with a ban bans
     * the key; while banned, every call is rejected without being counted.
     * @param limitId the limit's id, such as {@code "AnswerController.answer"}
     * @param key the key the limit applies to, such as a user id
     * @param limit what the limit allows
     * @return the decision
     * @throws IllegalArgumentException if the limit id is invalid
     */
    Decision tryAcquire(String limitId, String key, Limit limit);

    /**
     * Counts one call under a limit of {@code max} calls per {@code window}, with no alert and no
     * ban.
     * @param limitId the limit's id
     * @param key the key the limit applies to
     * @param max the calls allowed per window, at least 1
     * @param window the window's length, at least 1 ms
     * @return the decision
     * @throws IllegalArgumentException if an argument is invalid
     */
    default Decision tryAcquire(String limitId, String key, long max, Duration window) {
        return tryAcquire(limitId, key, Limit.of(max, window));
    }

    /**
     * Reads a key's count, the time left in its window and on its ban, without counting a call.
     * @param limitId the limit's id
     * @param key the key
     * @return the state; all zero for a key never seen or long expired
     */
    LimitState state(String limitId, String key);

    /**
     * Returns whether a key is banned under a limit.
     * @param limitId the limit's id
     * @param key the key
     * @return {@code true} while the key's ban has time left
     */
    default boolean isBanned(String limitId, String key) {
        return state(limitId, key).banned();
    }

    /**
     * Lifts a key's ban and clears its count, so its next call starts a fresh window rather than
     * going past the limit, and being banned, again.
     * @param limitId the limit's id
     * @param key the key
     * @return whether the key was banned
     */
    boolean unban(String limitId, String key);

    /**
     * Forgets everything about a key under a limit: its count and its ban.
     * @param limitId the limit's id
     * @param key the key
     */
    void reset(String limitId, String key);

}
