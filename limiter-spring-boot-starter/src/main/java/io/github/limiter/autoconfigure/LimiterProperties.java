package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import io.github.limiter.LimitChecks;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.OnFailure;
import io.github.limiter.interceptor.BlankKey;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration properties for limiter, under {@code limiter.*}. Checked when bound: an invalid
 * policy fails the application start with the property's name and value.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("limiter")
public class LimiterProperties implements Validator {

    /**
     * Whether to enable rate limiting. When false, @RateLimit methods run unlimited and no
     * RateLimiter bean is created.
     */
    private boolean enabled = true;

    /**
     * Prefix of every Redis key the limiter writes. Keys look like
     * '<prefix>{<limit-id>:<key>}'. Must not contain '{' or '}', which would break the hash tag
     * that keeps a decision's keys in one Redis Cluster slot.
     */
    private String keyPrefix = "limiter:";

    /**
     * What a call does when its key expression evaluates to null or a blank string: reject it
     * with a BlankRateLimitKeyException (HTTP 400 in web applications), or skip the limit for
     * that call.
     */
    private BlankKey blankKey = BlankKey.REJECT;

    /**
     * Whether keys are compared as people read them, in Unicode normalization form C: 'é' written
     * as one code point and as 'e' followed by a combining accent are then one key, with one count
     * and one ban. False compares keys code unit by code unit.
     */
    private boolean normalizeKeys = true;

    /**
     * The policy of a call whose @RateLimit(policy = "#{...}") names no defined policy (an unknown
     * or missing plan, say). Not set: such a call is refused with an IllegalStateException.
     */
    private @Nullable String defaultPolicy;

    /**
     * Named policies, used as @RateLimit(policy = "<name>"), each with: algorithm (fixed-window,
     * sliding-log, sliding-window, token-bucket), window (60s, 1m, PT1M), max, alert-at, ban-for,
     * mode (enforce, shadow), on-failure (allow, deny, local), and calendar (day, week, month, year) with
     * zone (Europe/Berlin, or SpEL per call) to count per calendar period instead of per window.
     * Attributes set on the annotation override the policy's.
     */
    private Map<String, LimiterPolicyProperties> policies = new LinkedHashMap<>();

    /**
     * HTTP answers for calls over a limit.
     */
    @NestedConfigurationProperty
    private final LimiterWebProperties web = new LimiterWebProperties();

    /**
     * The limiter's own connection to Redis.
     */
    @NestedConfigurationProperty
    private final LimiterRedisProperties redis = new LimiterRedisProperties();

    /**
     * Refusing keys from memory while Redis is known to refuse them.
     */
    @NestedConfigurationProperty
    private final LimiterLocalCacheProperties localCache = new LimiterLocalCacheProperties();

    /**
     * Changes of policies made while the application runs, kept in Redis for every instance.
     */
    @NestedConfigurationProperty
    private final LimiterPolicyOverridesProperties policyOverrides = new LimiterPolicyOverridesProperties();

    /**
     * The log lines of alerts and bans: bounded, so that an attacker cannot drive the log.
     */
    @NestedConfigurationProperty
    private final LimiterEventLogProperties eventLog = new LimiterEventLogProperties();

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getKeyPrefix() {
        return this.keyPrefix;
    }

    /**
     * Sets the prefix of every Redis key the limiter writes.
     * @param keyPrefix the key prefix, such as {@code "limiter:"}
     * @throws IllegalArgumentException if it contains {@code '{'} or {@code '}'}
     */
    public void setKeyPrefix(String keyPrefix) {
        if (keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("limiter.key-prefix '" + keyPrefix
                    + "' must not contain '{' or '}': they would break the hash tag of every key");
        }
        this.keyPrefix = keyPrefix;
    }

    public BlankKey getBlankKey() {
        return this.blankKey;
    }

    public void setBlankKey(BlankKey blankKey) {
        this.blankKey = blankKey;
    }

    public boolean isNormalizeKeys() {
        return this.normalizeKeys;
    }

    public void setNormalizeKeys(boolean normalizeKeys) {
        this.normalizeKeys = normalizeKeys;
    }

    public @Nullable String getDefaultPolicy() {
        return this.defaultPolicy;
    }

    public void setDefaultPolicy(@Nullable String defaultPolicy) {
        this.defaultPolicy = defaultPolicy;
    }

    public Map<String, LimiterPolicyProperties> getPolicies() {
        return this.policies;
    }

    public void setPolicies(Map<String, LimiterPolicyProperties> policies) {
        this.policies = policies;
    }

    public LimiterWebProperties getWeb() {
        return this.web;
    }

    public LimiterRedisProperties getRedis() {
        return this.redis;
    }

    public LimiterLocalCacheProperties getLocalCache() {
        return this.localCache;
    }

    public LimiterPolicyOverridesProperties getPolicyOverrides() {
        return this.policyOverrides;
    }

    public LimiterEventLogProperties getEventLog() {
        return this.eventLog;
    }

    @Override
    public boolean supports(Class<?> type) {
        return LimiterProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        LimiterProperties properties = (LimiterProperties) target;
        properties.policies.forEach((name, configured) -> {
            String prefix = "limiter.policies." + name + ".";
            boolean nested = false;
            for (int i = 0; i < configured.getLimits().size(); i++) {
                if (!configured.getLimits().get(i).getLimits().isEmpty()) {
                    nested = true;
                    errors.reject("limiter.policy", prefix + "limits[" + i + "].limits is set: a policy's limits are "
                            + "one level deep");
                }
            }
            LimitPolicy policy = configured.toPolicy();
            if (policy.limits().isEmpty()) {
                rejectPolicyProblems(prefix, policy, errors);
            }
            for (int i = 0; i < policy.limits().size() && !nested; i++) {
                // each of several limits, with what it leaves unset taken from its policy
                rejectPolicyProblems(prefix + "limits[" + i + "].", policy.limit(i), errors);
            }
        });
        if (properties.defaultPolicy != null && !properties.policies.containsKey(properties.defaultPolicy)) {
            errors.reject("limiter.default-policy", "limiter.default-policy = '" + properties.defaultPolicy
                    + "' is not a policy; defined policies: " + new TreeSet<>(properties.policies.keySet()));
        }
        double localShare = properties.redis.getLocalShare();
        if (!(localShare > 0 && localShare <= 1)) {
            errors.reject("limiter.redis.local-share", "limiter.redis.local-share = '" + localShare + "' must be "
                    + "above 0 and at most 1: the share of max each instance allows while it decides in memory");
        }
        rejectUnlessPositive(errors, "limiter.redis.timeout", properties.redis.getTimeout());
        LimiterPolicyOverridesProperties overrides = properties.policyOverrides;
        rejectUnlessPositive(errors, "limiter.policy-overrides.poll-interval", overrides.getPollInterval());
        rejectUnlessPositive(errors, "limiter.policy-overrides.retention", overrides.getRetention());
        rejectUnlessPositive(errors, "limiter.redis.connect-timeout", properties.redis.getConnectTimeout());
        rejectUnlessPositive(errors, "limiter.redis.max-reconnect-delay", properties.redis.getMaxReconnectDelay());
        int maxBatch = properties.redis.getCoalescing().getMaxBatch();
        if (maxBatch < 2 || maxBatch > 1000) {
            errors.reject("limiter.redis.coalescing.max-batch", "limiter.redis.coalescing.max-batch = '" + maxBatch
                    + "' must be from 2 to 1000 (limiter.redis.coalescing.enabled=false turns coalescing off)");
        }
        rejectUnlessPositive(errors, "limiter.event-log.interval", properties.eventLog.getInterval());
        if (properties.eventLog.getMaxLines() < 0) {
            errors.reject("limiter.event-log.max-lines", "limiter.event-log.max-lines = '"
                    + properties.eventLog.getMaxLines() + "' must not be negative (0 writes only the count)");
        }
        int banStatus = properties.web.getBanStatus();
        if (banStatus < 400 || banStatus > 599) {
            errors.reject("limiter.web.ban-status",
                    "limiter.web.ban-status = '" + banStatus + "' must be an HTTP error status (400 to 599)");
        }
    }

    private static void rejectPolicyProblems(String prefix, LimitPolicy policy, Errors errors) {
        Duration window = (policy.calendar() != null && policy.window() == null)
                ? policy.calendar().estimatedLength() : policy.window();
        for (LimitChecks.Problem problem : LimitChecks.problems(policy.algorithm(), window, policy.max(),
                policy.alertAt(), policy.banFor())) {
            errors.reject("limiter.policy", prefix + problem.field().property() + " = '" + problem.value() + "' "
                    + problem.message());
        }
        rejectCalendarProblems(prefix, policy, errors);
        if (policy.burst() != null) {
            LimitChecks.Problem burst = LimitChecks.burstProblem(
                    (policy.algorithm() != null) ? policy.algorithm() : Algorithm.FIXED_WINDOW,
                    (window != null) ? window : Duration.ofMillis(1), (policy.max() != null) ? policy.max() : 1,
                    policy.burst());
            if (burst != null) {
                errors.reject("limiter.policy", prefix + "burst = '" + burst.value() + "' " + burst.message());
            }
        }
        if (policy.maxWait() != null && policy.maxWait().isNegative()) {
            errors.reject("limiter.policy", prefix + "max-wait = '" + policy.maxWait() + "' is negative; a call "
                    + "waits from 0 (not at all) up to max-wait");
        }
    }

    /** A calendar excludes a window and other algorithms; a zone needs a calendar, and a zone id must name one. */
    private static void rejectCalendarProblems(String prefix, LimitPolicy policy, Errors errors) {
        String calendar = (policy.calendar() != null) ? policy.calendar().name().toLowerCase(Locale.ROOT) : null;
        if (calendar != null && policy.window() != null) {
            errors.reject("limiter.policy", prefix + "calendar = '" + calendar + "' excludes window ('"
                    + policy.window() + "'): a calendar policy counts calendar periods; set one of them");
        }
        if (calendar != null && policy.algorithm() != null && policy.algorithm() != Algorithm.FIXED_WINDOW) {
            errors.reject("limiter.policy", prefix + "algorithm = '"
                    + policy.algorithm().name().toLowerCase(Locale.ROOT).replace('_', '-') + "' cannot count calendar "
                    + calendar + " periods: a calendar policy is a fixed window by nature");
        }
        if (policy.zone() != null && calendar == null) {
            errors.reject("limiter.policy", prefix + "zone = '" + policy.zone() + "' needs a calendar: set "
                    + prefix + "calendar (day, week, month or year)");
        }
        String zoneProblem = (policy.zone() != null) ? LimitChecks.zoneProblem(policy.zone()) : null;
        if (zoneProblem != null) {
            errors.reject("limiter.policy", prefix + "zone = '" + policy.zone() + "' " + zoneProblem);
        }
    }

    private static void rejectUnlessPositive(Errors errors, String property, Duration value) {
        if (value.isZero() || value.isNegative()) {
            errors.reject(property, property + " = '" + value + "' must be positive");
        }
    }

}
