package io.github.limiter;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Reads and clears a key's state under a limit, besides the decisions a {@link RateLimiter} makes:
 * for admin endpoints, support tools and tests. The Spring Boot starter's limiter is both, so the
 * application can inject either.
 *
 * <p>These operations never guess: while the Redis-backed limiter cannot reach Redis, they fail
 * within its timeout with the {@link org.springframework.dao.DataAccessException} of the failure,
 * and the caller decides what an outage means (a login check may follow the limit's on-failure
 * setting). An unban or a reset reaches every instance that shares the Redis, including what they
 * remember locally.
 *
 * <p>Limit ids are not blank and have no {@code '{'}, {@code '}'}, {@code ':'} or whitespace.
 *
 * @since 0.1.0
 */
public interface RateLimitAdmin {

    /**
     * Reads a key's count, the time left in its window and on its ban, without counting a call.
     * @param limitId the limit's id
     * @param key the key
     * @param limit the limit, whose algorithm and window say how to read the count
     * @return the state; all zero for a key never seen or long expired
     */
    LimitState state(String limitId, String key, Limit limit);

    /**
     * Returns the time left on a key's ban under a limit.
     * @param limitId the limit's id
     * @param key the key
     * @return the time left, {@link Duration#ZERO} if the key is not banned
     */
    Duration banTimeLeft(String limitId, String key);

    /**
     * Returns whether a key is banned under a limit.
     * @param limitId the limit's id
     * @param key the key
     * @return {@code true} while the key's ban has time left
     */
    default boolean isBanned(String limitId, String key) {
        return !banTimeLeft(limitId, key).isZero();
    }

    /**
     * Lifts a key's ban and clears its count, so its next call starts afresh rather than going past
     * the limit, and being banned, again.
     * @param limitId the limit's id
     * @param key the key
     * @return whether the key was banned
     */
    boolean unban(String limitId, String key);

    /**
     * Forgets everything about a key under a limit: its count, its ban and its window's alert.
     * @param limitId the limit's id
     * @param key the key
     */
    void reset(String limitId, String key);

    /**
     * Lists a limit's latest alerts and bans, newest first, as every instance that shares the
     * Redis recorded them: for admin views, which then show the same on every instance.
     * @param limitId the limit's id
     * @return at most the 100 latest; empty where this admin keeps none (this default)
     */
    default List<RecentEvent> recentEvents(String limitId) {
        return List.of();
    }

    /**
     * An alert or a ban, as {@link #recentEvents} lists it.
     *
     * @param type {@code alert} or {@code ban}
     * @param at when the instance decided it, by its clock
     * @param limitId the limit's id
     * @param key the key; for a key longer than 200 characters, which no one types, its printable
     * form ({@link io.github.limiter.PrintableKeys}: its beginning, length and digest), so that no
     * client decides how large the record is
     * @param count the key's count in its window at the time
     * @param shadow whether the limit was in shadow mode (a would-be ban)
     * @param instance the application instance that decided it, as {@code pid@host}
     */
    record RecentEvent(String type, Instant at, String limitId, String key, long count, boolean shadow,
            String instance) {
    }

}
