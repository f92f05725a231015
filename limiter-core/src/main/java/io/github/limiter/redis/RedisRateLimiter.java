package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimiter;
import io.github.limiter.support.LimitIds;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link RateLimiter} that decides in Redis with one atomic Lua script per call, whatever the
 * number of limits, and publishes the alert and ban events its decisions call for.
 *
 * <p>Internal API; applications use the {@link RateLimiter} bean the starter provides.
 */
public final class RedisRateLimiter implements RateLimiter {

    private static final int REPLY_PER_LIMIT = 6;

    private static final String ACQUIRE = "acquire";

    private static final String PEEK = "peek";

    private static final RedisScript<List<Long>> DECIDE = LimiterScripts.decide();

    private final StringRedisTemplate redis;

    private final String keyPrefix;

    private final DecisionEvents events;

    /**
     * Creates a limiter.
     * @param redis the template the script runs through
     * @param keyPrefix the prefix of every key the limiter writes, such as {@code "limiter:"}
     * @param publisher publishes alert and ban events; {@code null} for none
     */
    public RedisRateLimiter(StringRedisTemplate redis, String keyPrefix, @Nullable ApplicationEventPublisher publisher) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
        this.events = new DecisionEvents(publisher);
    }

    @Override
    public Decision tryAcquire(List<LimitRequest> requests) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("A call must be under at least one limit");
        }
        List<String> keys = new ArrayList<>(requests.size() * 3);
        List<String> args = new ArrayList<>(2 + requests.size() * 6);
        args.add(ACQUIRE);
        args.add(Integer.toString(requests.size()));
        for (LimitRequest request : requests) {
            keys.addAll(keys(request.limitId(), request.key()));
            addLimitArgs(args, request.limit(), request.cost());
        }
        List<Long> reply = execute(keys, args, requests.size() * REPLY_PER_LIMIT);
        Decision binding = null;
        for (int i = 0; i < requests.size(); i++) {
            Decision decision = decision(requests.get(i), reply, i * REPLY_PER_LIMIT);
            this.events.publish(requests.get(i), decision);
            binding = (binding == null || binds(decision, binding)) ? decision : binding;
        }
        return binding;
    }

    @Override
    public LimitState state(String limitId, String key, Limit limit) {
        List<String> args = new ArrayList<>(8);
        args.add(PEEK);
        args.add("1");
        addLimitArgs(args, limit, 0);
        List<Long> reply = execute(keys(limitId, key), args, 3);
        return new LimitState(reply.get(0), Duration.ofMillis(reply.get(1)), Duration.ofMillis(reply.get(2)));
    }

    @Override
    public Duration banTimeLeft(String limitId, String key) {
        Long ttl = this.redis.getExpire(keys(limitId, key).get(1), TimeUnit.MILLISECONDS);
        return (ttl != null && ttl > 0) ? Duration.ofMillis(ttl) : Duration.ZERO;
    }

    @Override
    public boolean unban(String limitId, String key) {
        List<String> keys = keys(limitId, key);
        boolean banned = Boolean.TRUE.equals(this.redis.delete(keys.get(1)));
        this.redis.delete(List.of(keys.get(0), keys.get(2)));
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

    private static void addLimitArgs(List<String> args, Limit limit, long cost) {
        Duration banFor = limit.banFor();
        args.add(Integer.toString(limit.algorithm().ordinal() + 1));
        args.add(Long.toString(limit.max()));
        args.add(Long.toString(limit.window().toMillis()));
        args.add(Long.toString(cost));
        args.add(Long.toString(limit.alertAt()));
        args.add(Long.toString((banFor != null) ? banFor.toMillis() : 0));
    }

    private List<Long> execute(List<String> keys, List<String> args, int replySize) {
        List<Long> reply = this.redis.execute(DECIDE, keys, args.toArray());
        if (reply == null || reply.size() != replySize) {
            throw new IllegalStateException("Unexpected reply from the limiter script: " + reply);
        }
        return reply;
    }

    private static Decision decision(LimitRequest request, List<Long> reply, int at) {
        int code = reply.get(at).intValue();
        Outcome outcome = switch (code) {
            case 0 -> Outcome.ALLOWED;
            case 2 -> Outcome.BANNED;
            default -> Outcome.REJECTED;
        };
        long max = request.limit().max();
        long count = reply.get(at + 1);
        return new Decision(request.limitId(), request.key(), outcome, max, count,
                (outcome == Outcome.BANNED) ? 0 : Math.max(0, max - count), Duration.ofMillis(reply.get(at + 3)),
                Duration.ofMillis(reply.get(at + 2)), reply.get(at + 4) == 1L, reply.get(at + 5) == 1L);
    }

    /** A rejection binds over an allowance; the longest wait, or the fewest remaining, binds. */
    private static boolean binds(Decision candidate, Decision current) {
        if (candidate.allowed() != current.allowed()) {
            return !candidate.allowed();
        }
        return candidate.allowed() ? candidate.remaining() < current.remaining()
                : candidate.retryAfter().compareTo(current.retryAfter()) > 0;
    }

}
