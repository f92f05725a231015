package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimiter;
import io.github.limiter.support.LimitIds;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A {@link RateLimiter} that decides in Redis with one atomic Lua script per call, and publishes
 * the alert and ban events its decisions call for.
 *
 * <p>Internal API; applications use the {@link RateLimiter} bean the starter provides.
 */
public final class RedisRateLimiter implements RateLimiter {

    private static final Outcome[] OUTCOMES = { Outcome.ALLOWED, Outcome.REJECTED, Outcome.BANNED };

    private static final String ONE = "1";

    private final StringRedisTemplate redis;

    private final String keyPrefix;

    private final DecisionEvents events;

    private final LimiterScripts scripts = new LimiterScripts();

    /**
     * Creates a limiter.
     * @param redis the template the scripts run through
     * @param keyPrefix the prefix of every key the limiter writes, such as {@code "limiter:"}
     * @param publisher publishes alert and ban events; {@code null} for none
     */
    public RedisRateLimiter(StringRedisTemplate redis, String keyPrefix, @Nullable ApplicationEventPublisher publisher) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
        this.events = new DecisionEvents(publisher);
    }

    @Override
    public Decision tryAcquire(String limitId, String key, Limit limit) {
        Objects.requireNonNull(limit, "limit must not be null");
        Duration banFor = limit.banFor();
        List<Long> reply = this.redis.execute(this.scripts.fixedWindow, keys(limitId, key),
                Long.toString(limit.max()), Long.toString(limit.window().toMillis()), ONE,
                Long.toString(limit.alertAt()), Long.toString((banFor != null) ? banFor.toMillis() : 0));
        checkReply(reply, 6);
        Outcome outcome = OUTCOMES[reply.get(0).intValue()];
        long count = reply.get(1);
        Decision decision = new Decision(outcome, limit.max(), count,
                (outcome == Outcome.BANNED) ? 0 : Math.max(0, limit.max() - count), Duration.ofMillis(reply.get(3)),
                Duration.ofMillis(reply.get(2)), reply.get(4) == 1L, reply.get(5) == 1L);
        this.events.publish(limitId, key, limit, decision);
        return decision;
    }

    @Override
    public LimitState state(String limitId, String key) {
        List<Long> reply = this.redis.execute(this.scripts.state, keys(limitId, key));
        checkReply(reply, 3);
        return new LimitState(reply.get(0), Duration.ofMillis(reply.get(1)), Duration.ofMillis(reply.get(2)));
    }

    @Override
    public boolean unban(String limitId, String key) {
        List<String> keys = keys(limitId, key);
        boolean banned = Boolean.TRUE.equals(this.redis.delete(keys.get(1)));
        this.redis.delete(keys.get(0));
        return banned;
    }

    @Override
    public void reset(String limitId, String key) {
        this.redis.delete(keys(limitId, key));
    }

    private List<String> keys(String limitId, String key) {
        Objects.requireNonNull(limitId, "limitId must not be null");
        Objects.requireNonNull(key, "key must not be null");
        String problem = LimitIds.problemWith(limitId);
        if (problem != null) {
            throw new IllegalArgumentException("limitId '" + limitId + "' " + problem);
        }
        return RedisKeys.of(this.keyPrefix, limitId, key);
    }

    private static void checkReply(@Nullable List<Long> reply, int size) {
        if (reply == null || reply.size() != size) {
            throw new IllegalStateException("Unexpected reply from a limiter script: " + reply);
        }
    }

}
