package io.github.limiter.redis;

import io.github.limiter.internal.transport.LettuceScriptRunner;
import io.github.limiter.internal.transport.RedisPermissionException;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What the limiter's checks of Redis found: the server's version, the user it is connected as, and
 * a permission that user lacks, which lasts until a check passes. The decisions' failures read the
 * user and the permission to explain a refusal.
 */
final class RedisStartChecks {

    private final StringRedisTemplate redis;

    private final ScriptRunners runners;

    private final String keyPrefix;

    private volatile @Nullable String redisVersion;

    private volatile @Nullable RedisPermissionException misconfiguration;

    // the user the last check found the limiter connected as, for permission errors
    private volatile @Nullable String redisUser;

    RedisStartChecks(StringRedisTemplate redis, ScriptRunners runners, String keyPrefix) {
        this.redis = redis;
        this.runners = runners;
        this.keyPrefix = keyPrefix;
    }

    /**
     * Checks Redis as {@link RedisRateLimiter#check()} says, then lets {@code passed} run.
     * @return the server's version
     */
    String check(Runnable passed) {
        String version;
        try {
            String user = RedisPermissions.user(this.redis);
            this.redisUser = user;
            version = RedisPermissions.check(this.redis, this.runners.blocking(), this.keyPrefix,
                    RedisLayout.invalidationChannel(this.keyPrefix), user,
                    () -> RedisChecks.check(this.redis, DecisionScript.SCRIPT, DecisionScript.FIXED_WINDOW_FAST,
                            DecisionScript.BATCH, DecisionScript.FIXED_WINDOW_FAST_BATCH));
        }
        catch (RedisPermissionException ex) {
            this.misconfiguration = ex;
            throw ex;
        }
        this.misconfiguration = null;
        passed.run();
        LettuceScriptRunner lettuce = this.runners.lettuce();
        if (lettuce != null) {
            lettuce.prepare();
        }
        this.redisVersion = version;
        return version;
    }

    @Nullable RedisPermissionException misconfiguration() {
        return this.misconfiguration;
    }

    boolean misconfigured() {
        return this.misconfiguration != null;
    }

    @Nullable String redisVersion() {
        return this.redisVersion;
    }

    /** What Redis's refusal of a permission means for the limiter, and what to grant. */
    String permissionMessage(String refusal) {
        return RedisPermissions.message(this.redisUser, refusal, this.keyPrefix,
                RedisLayout.invalidationChannel(this.keyPrefix));
    }

}
