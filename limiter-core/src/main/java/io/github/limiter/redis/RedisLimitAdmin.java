package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Limit;
import io.github.limiter.LimitState;
import io.github.limiter.internal.refusals.Invalidators;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.github.limiter.internal.transport.BlockingScriptRunner;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A limiter's operations on one key's state, besides decisions: reading it, and lifting a ban or
 * resetting a key on every instance (this one invalidates the key's remembered refusal and tells the
 * others on the invalidation channel). Keys are removed with {@code UNLINK}, which frees their
 * memory off Redis's main thread: a sliding log's key holds an entry per call in its window, and
 * one of max 100,000 takes {@code DEL} tens of milliseconds, while every other decision waits.
 */
final class RedisLimitAdmin {

    static {
        // the test kits invalidate the refusals of any Redis-backed limiter through this
        Invalidators.grant((limiter) -> (limiter instanceof RedisRateLimiter redis)
                ? redis.admin::invalidateEverywhere : null);
    }

    private final StringRedisTemplate redis;

    private final BlockingScriptRunner blocking;

    private final String keyPrefix;

    private final @Nullable LocalRefusals localRefusals;

    // as the decisions' (DecisionEngine)
    private volatile boolean normalizeKeys = true;

    RedisLimitAdmin(StringRedisTemplate redis, BlockingScriptRunner blocking, String keyPrefix,
            @Nullable LocalRefusals localRefusals) {
        this.redis = redis;
        this.blocking = blocking;
        this.keyPrefix = keyPrefix;
        this.localRefusals = localRefusals;
    }

    void normalizeKeys(boolean normalizeKeys) {
        this.normalizeKeys = normalizeKeys;
    }

    LimitState state(String limitId, String key, Limit limit) {
        Objects.requireNonNull(key, "key must not be null");
        DecisionEngine.checkLimitId(limitId);
        String state = RedisKeys.state(this.keyPrefix, limitId, key, this.normalizeKeys);
        return DecisionReply.state(this.blocking.runHere(new DecisionArguments(DecisionScript.PEEK, 1).add(state, limit, 0)));
    }

    Duration banTimeLeft(String limitId, String key) {
        Long ttl = this.redis.getExpire(keys(limitId, key).get(1), TimeUnit.MILLISECONDS);
        return (ttl != null && ttl > 0) ? Duration.ofMillis(ttl) : Duration.ZERO;
    }

    boolean unban(String limitId, String key) {
        List<String> keys = keys(limitId, key);
        boolean banned = Boolean.TRUE.equals(this.redis.unlink(keys.get(1)));
        this.redis.unlink(List.of(keys.get(0), keys.get(2), keys.get(0) + RedisLayout.SHADOW_BAN));
        invalidateEverywhere(keys.get(0));
        return banned;
    }

    void reset(String limitId, String key) {
        List<String> keys = keys(limitId, key);
        this.redis.unlink(List.of(keys.get(0), keys.get(1), keys.get(2), keys.get(0) + RedisLayout.SHADOW_BAN));
        invalidateEverywhere(keys.get(0));
    }

    void invalidateEverywhere(String stateKey) {
        if (this.localRefusals != null) {
            this.localRefusals.invalidate(stateKey);
            this.redis.convertAndSend(RedisLayout.invalidationChannel(this.keyPrefix), stateKey);
        }
    }

    private List<String> keys(String limitId, String key) {
        Objects.requireNonNull(key, "key must not be null");
        DecisionEngine.checkLimitId(limitId);
        return RedisKeys.of(RedisKeys.state(this.keyPrefix, limitId, key, this.normalizeKeys), false);
    }

}
