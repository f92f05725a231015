package io.github.limiter.test.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.LimitState;
import io.github.limiter.PrintableKeys;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimiter;
import io.github.limiter.LimitDescription;
import io.github.limiter.interceptor.RateLimitAdvisor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Puts the application's rate limits in the state a test needs, and reads it back: uses up a key's
 * limit, bans a key, inspects and resets it, and waits for room in a limit's window. A bean of the test's application context with
 * {@link AutoConfigureLimiterRedis @AutoConfigureLimiterRedis}.
 *
 * <pre class="code">
 * rateLimits.exhaust("answers", "alice");
 * assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -&gt; answers.answer(1, "alice"));
 * </pre>
 *
 * <p>Everything goes through the application's {@link RateLimiter} (and its {@link RateLimitAdmin}, to read
 * and reset keys), as its own calls do: the same
 * script counts, bans and raises alerts, so the application's listeners hear the alert and the ban
 * (a {@code RateLimitBanEvent} handler runs when {@link #ban} bans a key), and the limiter remembers
 * the refusal it made. A limit is found by its id among the {@code @RateLimit} limits of the
 * application's beans, with its policy resolved: those of beans created so far, which after the
 * context's start are all its singletons.
 *
 * @since 0.1.0
 */
public final class RateLimitTester {

    /** Rounds to exhaust or ban a key whose limit refills while it is being used up. */
    private static final int ROUNDS = 10;

    private final ObjectProvider<RateLimiter> rateLimiter;

    private final ObjectProvider<RateLimitAdmin> admin;

    private final ObjectProvider<RateLimitAdvisor> advisor;

    private final LimiterStateReset reset;

    private final ObjectProvider<RedisConnectionFactory> connectionFactory;

    RateLimitTester(ObjectProvider<RateLimiter> rateLimiter, ObjectProvider<RateLimitAdmin> admin,
            ObjectProvider<RateLimitAdvisor> advisor, LimiterStateReset reset,
            ObjectProvider<RedisConnectionFactory> connectionFactory) {
        this.rateLimiter = rateLimiter;
        this.admin = admin;
        this.advisor = advisor;
        this.reset = reset;
        this.connectionFactory = connectionFactory;
    }

    /**
     * Returns the limit the application declares under an id, with its policy resolved.
     * @param limitId the limit's id, such as {@code "AnswerService.answer"} or a {@code name}
     * @return the limit
     * @throws IllegalArgumentException if no {@code @RateLimit} of the application's beans has this id
     * @throws IllegalStateException if methods declare different limits under this id
     * @since 0.1.0
     */
    public Limit limit(String limitId) {
        Objects.requireNonNull(limitId, "limitId must not be null");
        List<LimitDescription> declared = advisor().limits();
        List<Limit> limits = declared.stream()
            .filter(description -> description.limitId().equals(limitId))
            .map(LimitDescription::limit)
            .distinct()
            .toList();
        if (limits.isEmpty()) {
            throw new IllegalArgumentException("No @RateLimit of the application's beans has the limit id '"
                    + limitId + "'; those it has are "
                    + declared.stream().map(LimitDescription::limitId).distinct().toList());
        }
        if (limits.size() > 1) {
            throw new IllegalStateException(
                    "Methods declare different limits under the id '" + limitId + "': " + limits);
        }
        return limits.get(0);
    }

    /**
     * Uses up a key's limit, so that its next call is refused (for a limit that refills over time,
     * such as a token bucket, until it refills). Counted through the limit's own script, so a limit
     * with an alert raises it, as calls would; a key already used up or banned is left as it is,
     * never pushed past the limit, so that exhausting never bans.
     * @param limitId the limit's id
     * @param key the key, such as a user id; the empty string for a limit with no key
     * @throws IllegalArgumentException if the application declares no limit with this id
     * @throws IllegalStateException if the limit refills faster than it can be used up
     * @since 0.1.0
     */
    public void exhaust(String limitId, String key) {
        exhaust(limitId, key, limit(limitId));
    }

    private void exhaust(String limitId, String key, Limit limit) {
        Objects.requireNonNull(key, "key must not be null");
        LimitState state = admin().state(limitId, key, limit);
        if (state.banned()) {
            return;
        }
        long remaining = limit.max() - state.count();
        for (int round = 0; round < ROUNDS && remaining > 0; round++) {
            // room only grows with time, so what is left now still fits when the script runs
            LimitRequest rest = new LimitRequest(limitId, key, limit, remaining);
            remaining = rateLimiter().tryAcquire(List.of(rest)).remaining();
        }
        if (remaining > 0) {
            throw new IllegalStateException("Limit '" + limitId + "' (" + limit + ") refills key '"
                    + PrintableKeys.of(key) + "' faster than it can be used up");
        }
    }

    /**
     * Bans a key under a limit with a ban tier: uses the limit up, then makes the call past it, which
     * starts the ban as a call of the application's would (the application's listeners are told).
     * A key already banned stays banned, with the time it had left.
     * @param limitId the limit's id
     * @param key the key, such as a user id; the empty string for a limit with no key
     * @throws IllegalArgumentException if the application declares no limit with this id
     * @throws IllegalStateException if the limit has no ban ({@code ban-for}), is in shadow mode, or
     * refills faster than it can be used up
     * @since 0.1.0
     */
    public void ban(String limitId, String key) {
        Limit limit = limit(limitId);
        if (limit.banFor() == null) {
            throw new IllegalStateException("Limit '" + limitId + "' has no ban tier (ban-for): " + limit);
        }
        if (limit.mode() == Limit.Mode.SHADOW) {
            throw new IllegalStateException("Limit '" + limitId + "' is in shadow mode: its bans never bind");
        }
        for (int round = 0; round < ROUNDS; round++) {
            exhaust(limitId, key, limit);
            Decision decision = rateLimiter().tryAcquire(limitId, key, limit);
            if (decision.banned()) {
                return;
            }
        }
        throw new IllegalStateException("Limit '" + limitId + "' (" + limit + ") refills key '"
                + PrintableKeys.of(key) + "' faster than it can be banned");
    }

    /**
     * Reads a key's state under a limit, without counting a call.
     * @param limitId the limit's id
     * @param key the key; the empty string for a limit with no key
     * @return the count in the current window, the time left in it and on the key's ban
     * @throws IllegalArgumentException if the application declares no limit with this id
     * @since 0.1.0
     */
    public LimitState state(String limitId, String key) {
        return admin().state(limitId, key, limit(limitId));
    }

    /**
     * Returns whether a key is banned under a limit.
     * @param limitId the limit's id, declared or used through the {@link RateLimiter} directly
     * @param key the key; the empty string for a limit with no key
     * @return {@code true} while the key's ban has time left
     * @since 0.1.0
     */
    public boolean isBanned(String limitId, String key) {
        return admin().isBanned(limitId, key);
    }

    /**
     * Forgets a key under a limit, as {@link RateLimitAdmin#reset} does: its count, ban and alert, here
     * and in the memory of refused keys of every instance.
     * @param limitId the limit's id, declared or used through the {@link RateLimiter} directly
     * @param key the key; the empty string for a limit with no key
     * @since 0.1.0
     */
    public void reset(String limitId, String key) {
        admin().reset(limitId, key);
    }

    /**
     * Forgets every key of every limit: waits for the recent alerts and bans being written, deletes
     * every Redis key that starts with the application's {@code limiter.key-prefix} (with
     * {@code SCAN} and {@code UNLINK}, never a flush: other keys of the Redis stay), and makes the
     * limiter forget, here and on every instance, the keys it refuses from memory. Run after each
     * test method of a test with {@link AutoConfigureLimiterRedis @AutoConfigureLimiterRedis}. Does
     * nothing while the limiter is switched off ({@code limiter.enabled=false}).
     * @since 0.1.0
     */
    public void resetAll() {
        this.reset.run();
    }

    /**
     * Returns once the current window of a limit has at least {@code room} left: at once, or when
     * the next window starts. Fixed windows (and the sliding window's) are periods of Redis's
     * clock, aligned on multiples of their length (a {@code 60s} window is a minute of the clock),
     * or a calendar limit's calendar periods (in the zone of the limit as declared: UTC for a zone
     * chosen per call),
     * so a test that expects several calls to fall in one window calls this first, with room for
     * them; otherwise, now and then, a window ends under its calls and starts the count again.
     * @param limitId the limit's id
     * @param room how long the test's calls need, at most the limit's window
     * @throws IllegalArgumentException if the application declares no limit with this id, if its
     * algorithm's windows are not periods of the clock (sliding log, token bucket), or if
     * {@code room} is longer than its window
     * @since 0.1.0
     */
    public void awaitRoom(String limitId, Duration room) {
        Objects.requireNonNull(room, "room must not be null");
        Limit limit = limit(limitId);
        if (limit.algorithm() != Algorithm.FIXED_WINDOW && limit.algorithm() != Algorithm.SLIDING_WINDOW) {
            throw new IllegalArgumentException("Limit '" + limitId + "' counts with " + limit.algorithm()
                    + ", whose windows are not periods of the clock: it has no window to wait for");
        }
        long length = limit.window().toMillis();
        if (room.toMillis() > length) {
            throw new IllegalArgumentException("Limit '" + limitId + "' has windows of " + limit.window()
                    + ", which have no room for " + room);
        }
        RedisConnectionFactory factory = unique(this.connectionFactory, "RedisConnectionFactory");
        // at most two looks: the second is at the start of a window, which has all of it left
        for (int look = 0; look < 3; look++) {
            long left = left(limit, redisMillis(factory));
            if (left >= room.toMillis()) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left + 1));
        }
        throw new IllegalStateException("Redis's clock gave no window of " + limit.window() + " with " + room + " left");
    }

    /** What is left of the window Redis's clock is in: of the calendar period, for a calendar limit. */
    private static long left(Limit limit, long now) {
        CalendarWindow calendar = limit.calendar();
        if (calendar != null && limit.zone() != null) {
            return calendar.end(Instant.ofEpochMilli(now), limit.zone()).toEpochMilli() - now;
        }
        long length = limit.window().toMillis();
        return length - now % length;
    }

    private static long redisMillis(RedisConnectionFactory factory) {
        try (RedisConnection connection = factory.getConnection()) {
            Long now = connection.serverCommands().time(TimeUnit.MILLISECONDS);
            if (now == null) {
                throw new IllegalStateException("Redis answered no TIME");
            }
            return now;
        }
    }

    private RateLimiter rateLimiter() {
        return unique(this.rateLimiter, "RateLimiter");
    }

    private RateLimitAdmin admin() {
        return unique(this.admin, "RateLimitAdmin");
    }

    private RateLimitAdvisor advisor() {
        return unique(this.advisor, "RateLimitAdvisor");
    }

    private static <T> T unique(ObjectProvider<T> provider, String type) {
        T found = provider.getIfUnique();
        if (found == null) {
            throw new IllegalStateException("The application has no single " + type
                    + " bean: is limiter.enabled false?");
        }
        return found;
    }

}
