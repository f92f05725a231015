package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.aop.BlankKey;
import io.github.limiter.support.LimitChecks;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
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
     * The policy of a call whose @RateLimit(policy = "#{...}") names no defined policy (an unknown
     * or missing plan, say). Not set: such a call is refused with an IllegalStateException.
     */
    private @Nullable String defaultPolicy;

    /**
     * Named policies, used as @RateLimit(policy = "<name>"), each with: algorithm (fixed-window,
     * sliding-log, sliding-window, token-bucket), window (60s, 1m, PT1M), max, alert-at, ban-for,
     * mode (enforce, shadow) and on-failure (allow, deny). Attributes set on the annotation override
     * the policy's.
     */
    private Map<String, Policy> policies = new LinkedHashMap<>();

    /**
     * HTTP answers for calls over a limit.
     */
    private final Web web = new Web();

    /**
     * The limiter's own connection to Redis.
     */
    private final Redis redis = new Redis();

    /**
     * Refusing keys from memory while Redis is known to refuse them.
     */
    private final LocalCache localCache = new LocalCache();

    /**
     * Changes of policies made while the application runs, kept in Redis for every instance.
     */
    private final PolicyOverrides policyOverrides = new PolicyOverrides();

    /**
     * The log lines of alerts and bans: bounded, so that an attacker cannot drive the log.
     */
    private final EventLog eventLog = new EventLog();

    /**
     * Returns whether rate limiting is enabled.
     * @return {@code true} unless switched off
     */
    public boolean isEnabled() {
        return this.enabled;
    }

    /**
     * Sets whether rate limiting is enabled.
     * @param enabled {@code false} to switch it off
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Returns the prefix of every Redis key the limiter writes.
     * @return the key prefix
     */
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

    /**
     * Returns what a call whose key is null or blank does.
     * @return the choice
     */
    public BlankKey getBlankKey() {
        return this.blankKey;
    }

    /**
     * Sets what a call whose key is null or blank does.
     * @param blankKey the choice
     */
    public void setBlankKey(BlankKey blankKey) {
        this.blankKey = blankKey;
    }

    /**
     * Returns the policy of calls whose chosen policy is not defined.
     * @return the policy's name, or {@code null} to refuse such calls
     */
    public @Nullable String getDefaultPolicy() {
        return this.defaultPolicy;
    }

    /**
     * Sets the policy of calls whose chosen policy is not defined.
     * @param defaultPolicy the policy's name, or {@code null} to refuse such calls
     */
    public void setDefaultPolicy(@Nullable String defaultPolicy) {
        this.defaultPolicy = defaultPolicy;
    }

    /**
     * Returns the named policies.
     * @return the policies by name
     */
    public Map<String, Policy> getPolicies() {
        return this.policies;
    }

    /**
     * Sets the named policies.
     * @param policies the policies by name
     */
    public void setPolicies(Map<String, Policy> policies) {
        this.policies = policies;
    }

    /**
     * Returns the HTTP settings.
     * @return the web settings
     */
    public Web getWeb() {
        return this.web;
    }

    /**
     * Returns the Redis connection settings.
     * @return the Redis settings
     */
    public Redis getRedis() {
        return this.redis;
    }

    /**
     * Returns the local cache settings.
     * @return the local cache settings
     */
    public LocalCache getLocalCache() {
        return this.localCache;
    }

    /**
     * Returns the policy override settings.
     * @return the policy override settings
     */
    public PolicyOverrides getPolicyOverrides() {
        return this.policyOverrides;
    }

    /**
     * Returns the settings of the alert and ban log lines.
     * @return the event log settings
     */
    public EventLog getEventLog() {
        return this.eventLog;
    }

    @Override
    public boolean supports(Class<?> type) {
        return LimiterProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        LimiterProperties properties = (LimiterProperties) target;
        properties.policies.forEach((name, policy) -> {
            for (LimitChecks.Problem problem : LimitChecks.problems(policy.algorithm, policy.window, policy.max,
                    policy.alertAt, policy.banFor)) {
                errors.reject("limiter.policy", "limiter.policies." + name + "." + problem.field().property()
                        + " = '" + problem.value() + "' " + problem.message());
            }
        });
        if (properties.defaultPolicy != null && !properties.policies.containsKey(properties.defaultPolicy)) {
            errors.reject("limiter.default-policy", "limiter.default-policy = '" + properties.defaultPolicy
                    + "' is not a policy; defined policies: " + new TreeSet<>(properties.policies.keySet()));
        }
        rejectUnlessPositive(errors, "limiter.redis.timeout", properties.redis.timeout);
        rejectUnlessPositive(errors, "limiter.policy-overrides.poll-interval", properties.policyOverrides.pollInterval);
        rejectUnlessPositive(errors, "limiter.policy-overrides.retention", properties.policyOverrides.retention);
        rejectUnlessPositive(errors, "limiter.redis.connect-timeout", properties.redis.connectTimeout);
        rejectUnlessPositive(errors, "limiter.redis.max-reconnect-delay", properties.redis.maxReconnectDelay);
        int maxBatch = properties.redis.coalescing.maxBatch;
        if (maxBatch < 2 || maxBatch > 1000) {
            errors.reject("limiter.redis.coalescing.max-batch", "limiter.redis.coalescing.max-batch = '" + maxBatch
                    + "' must be from 2 to 1000 (limiter.redis.coalescing.enabled=false turns coalescing off)");
        }
        rejectUnlessPositive(errors, "limiter.event-log.interval", properties.eventLog.interval);
        if (properties.eventLog.maxLines < 0) {
            errors.reject("limiter.event-log.max-lines", "limiter.event-log.max-lines = '"
                    + properties.eventLog.maxLines + "' must not be negative (0 writes only the count)");
        }
        int banStatus = properties.web.banStatus;
        if (banStatus < 400 || banStatus > 599) {
            errors.reject("limiter.web.ban-status",
                    "limiter.web.ban-status = '" + banStatus + "' must be an HTTP error status (400 to 599)");
        }
    }

    private static void rejectUnlessPositive(Errors errors, String property, Duration value) {
        if (value.isZero() || value.isNegative()) {
            errors.reject(property, property + " = '" + value + "' must be positive");
        }
    }

    /**
     * A named policy: the settings that {@code @RateLimit(policy = "<name>")} takes its unset
     * attributes from.
     */
    public static class Policy {

        /**
         * How calls are counted: fixed-window, sliding-log, sliding-window or token-bucket.
         * Defaults to fixed-window.
         */
        private @Nullable Algorithm algorithm;

        /**
         * Length of the window, such as 60s or 1m. Required.
         */
        private @Nullable Duration window;

        /**
         * Whether the policy's limits stop calls (enforce) or only count, alert and report what they
         * would have rejected or banned (shadow). Defaults to enforce.
         */
        private Limit.@Nullable Mode mode;

        /**
         * What calls under this policy do when Redis cannot decide: allow or deny. Defaults to
         * limiter.redis.on-failure.
         */
        private @Nullable OnFailure onFailure;

        /**
         * Calls allowed per key and window; the next call is rejected. May be left to the
         * annotations that use the policy.
         */
        private @Nullable Long max;

        /**
         * Count after which the next call in a window raises one RateLimitAlertEvent, across all
         * instances. Must be less than max.
         */
        private @Nullable Long alertAt;

        /**
         * How long a key that goes past max is banned, such as 15m. While banned, every call for
         * the key is rejected without being counted. Needs max.
         */
        private @Nullable Duration banFor;

        /**
         * Returns the algorithm.
         * @return the algorithm, or {@code null} if not set
         */
        public @Nullable Algorithm getAlgorithm() {
            return this.algorithm;
        }

        /**
         * Sets the algorithm.
         * @param algorithm the algorithm
         */
        public void setAlgorithm(@Nullable Algorithm algorithm) {
            this.algorithm = algorithm;
        }

        /**
         * Returns what calls do when Redis cannot decide.
         * @return the choice, or {@code null} for the default
         */
        public @Nullable OnFailure getOnFailure() {
            return this.onFailure;
        }

        /**
         * Sets what calls do when Redis cannot decide.
         * @param onFailure the choice
         */
        public void setOnFailure(@Nullable OnFailure onFailure) {
            this.onFailure = onFailure;
        }

        /**
         * Returns the mode.
         * @return the mode, or {@code null} if not set
         */
        public Limit.@Nullable Mode getMode() {
            return this.mode;
        }

        /**
         * Sets the mode.
         * @param mode the mode
         */
        public void setMode(Limit.@Nullable Mode mode) {
            this.mode = mode;
        }

        /**
         * Returns the window.
         * @return the window, or {@code null} if not set
         */
        public @Nullable Duration getWindow() {
            return this.window;
        }

        /**
         * Sets the window.
         * @param window the window
         */
        public void setWindow(@Nullable Duration window) {
            this.window = window;
        }

        /**
         * Returns the calls allowed per window.
         * @return the max, or {@code null} if not set
         */
        public @Nullable Long getMax() {
            return this.max;
        }

        /**
         * Sets the calls allowed per window.
         * @param max the max
         */
        public void setMax(@Nullable Long max) {
            this.max = max;
        }

        /**
         * Returns the alert threshold.
         * @return the threshold, or {@code null} if not set
         */
        public @Nullable Long getAlertAt() {
            return this.alertAt;
        }

        /**
         * Sets the alert threshold.
         * @param alertAt the threshold
         */
        public void setAlertAt(@Nullable Long alertAt) {
            this.alertAt = alertAt;
        }

        /**
         * Returns the ban's length.
         * @return the ban's length, or {@code null} if not set
         */
        public @Nullable Duration getBanFor() {
            return this.banFor;
        }

        /**
         * Sets the ban's length.
         * @param banFor the ban's length
         */
        public void setBanFor(@Nullable Duration banFor) {
            this.banFor = banFor;
        }

    }

    /**
     * The limiter's own connection to Redis, to the server the application's
     * RedisConnectionFactory points at, so that its timeout and failure handling are independent of
     * the application's other Redis use.
     */
    public static class Redis {

        /**
         * Longest a decision, or any other command of the limiter, may wait for Redis; past it, the
         * call follows its on-failure setting. Lettuce's own default (60s) would let a slow Redis
         * stall every limited call.
         */
        private Duration timeout = Duration.ofMillis(100);

        /**
         * Longest the limiter waits to open a connection to Redis, the TLS and protocol handshake
         * included. Longer than the command timeout so that a loaded host still connects; calls
         * made before the first connection is open follow their on-failure setting at once.
         */
        private Duration connectTimeout = Duration.ofSeconds(2);

        /**
         * Longest wait between two attempts to reconnect after Redis went away (Lettuce's own
         * back-off grows to 30s), and between two attempts to subscribe to unbans and resets from
         * other instances. Decisions are exact again at most about this long after Redis accepts
         * connections again.
         */
        private Duration maxReconnectDelay = Duration.ofSeconds(1);

        /**
         * What limited calls do when Redis cannot decide: allow (the default: a Redis outage does
         * not take the site down, and limiter.decisions counts it as outcome "error") or deny.
         */
        private OnFailure onFailure = OnFailure.ALLOW;

        /**
         * Most commands the limiter's connection queues; more are refused at once rather than
         * waiting behind a stalled Redis.
         */
        private int requestQueueSize = 10_000;

        /**
         * Whether to refuse a Redis that may evict the limiter's keys (a maxmemory-policy other than
         * noeviction, with a maxmemory limit): such a Redis lifts bans and resets counts once it is
         * full. Found at the start, it fails the start; found later, the limiter's health is DOWN.
         * When false, it is logged once at WARN.
         */
        private boolean requireNoeviction;

        /**
         * Decisions made while another is in flight on the limiter's connection are sent together,
         * as one script call, as soon as it returns (Lettuce only).
         */
        private final Coalescing coalescing = new Coalescing();

        /**
         * Returns the timeout.
         * @return the timeout
         */
        public Duration getTimeout() {
            return this.timeout;
        }

        /**
         * Sets the timeout.
         * @param timeout the timeout
         */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        /**
         * Returns the connect timeout.
         * @return the longest wait to open a connection
         */
        public Duration getConnectTimeout() {
            return this.connectTimeout;
        }

        /**
         * Sets the connect timeout.
         * @param connectTimeout the longest wait to open a connection
         */
        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        /**
         * Returns the longest wait between reconnection attempts.
         * @return the longest reconnect delay
         */
        public Duration getMaxReconnectDelay() {
            return this.maxReconnectDelay;
        }

        /**
         * Sets the longest wait between reconnection attempts.
         * @param maxReconnectDelay the longest reconnect delay
         */
        public void setMaxReconnectDelay(Duration maxReconnectDelay) {
            this.maxReconnectDelay = maxReconnectDelay;
        }

        /**
         * Returns what limited calls do when Redis cannot decide.
         * @return the choice
         */
        public OnFailure getOnFailure() {
            return this.onFailure;
        }

        /**
         * Sets what limited calls do when Redis cannot decide.
         * @param onFailure the choice
         */
        public void setOnFailure(OnFailure onFailure) {
            this.onFailure = onFailure;
        }

        /**
         * Returns the request queue size.
         * @return the most queued commands
         */
        public int getRequestQueueSize() {
            return this.requestQueueSize;
        }

        /**
         * Sets the request queue size.
         * @param requestQueueSize the most queued commands
         */
        public void setRequestQueueSize(int requestQueueSize) {
            this.requestQueueSize = requestQueueSize;
        }

        /**
         * Returns whether a Redis that may evict the limiter's keys is refused.
         * @return whether the limiter requires noeviction
         */
        public boolean isRequireNoeviction() {
            return this.requireNoeviction;
        }

        /**
         * Sets whether a Redis that may evict the limiter's keys is refused.
         * @param requireNoeviction whether the limiter requires noeviction
         */
        public void setRequireNoeviction(boolean requireNoeviction) {
            this.requireNoeviction = requireNoeviction;
        }

        /**
         * Returns the coalescing settings.
         * @return the coalescing settings
         */
        public Coalescing getCoalescing() {
            return this.coalescing;
        }

    }

    /**
     * Coalescing of concurrent decisions (group commit): a decision that finds none in flight on
     * the limiter's connection is sent at once; those made while one is in flight wait for it and
     * are then sent together, as one script call that decides each on its own, in order. Redis
     * then spends far less per decision. Applies with Lettuce; Jedis sends each decision alone.
     */
    public static class Coalescing {

        /**
         * Whether concurrent decisions are coalesced. Off, every decision is a script call of its
         * own.
         */
        private boolean enabled = true;

        /**
         * Most decisions in one script call; those beyond wait for the next call.
         */
        private int maxBatch = 64;

        /**
         * Returns whether concurrent decisions are coalesced.
         * @return whether they are
         */
        public boolean isEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether concurrent decisions are coalesced.
         * @param enabled whether they are
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * Returns the most decisions in one script call.
         * @return the most decisions in one script call
         */
        public int getMaxBatch() {
            return this.maxBatch;
        }

        /**
         * Sets the most decisions in one script call.
         * @param maxBatch the most decisions in one script call, 2 or more
         */
        public void setMaxBatch(int maxBatch) {
            this.maxBatch = maxBatch;
        }

    }

    /**
     * Changes of a policy's {@code max}, {@code window}, {@code alert-at} and {@code ban-for} made
     * while the application runs (through the {@code ratelimits} endpoint or a configuration
     * refresh): kept in Redis and read by every instance.
     */
    public static class PolicyOverrides {

        /**
         * Whether policies can be changed while the application runs, and every instance reads
         * the changes from Redis.
         */
        private boolean enabled = true;

        /**
         * How often each instance reads the overrides from Redis: the longest an instance takes to
         * apply a change made on another when it did not hear the change announced.
         */
        private Duration pollInterval = Duration.ofSeconds(1);

        /**
         * How long the overrides stay in Redis after their latest change while no instance runs;
         * running instances renew it.
         */
        private Duration retention = Duration.ofDays(30);

        /**
         * Returns whether policies can be changed while the application runs.
         * @return {@code true} unless switched off
         */
        public boolean isEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether policies can be changed while the application runs.
         * @param enabled {@code false} to use the configured policies only
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * Returns how often each instance reads the overrides.
         * @return the interval
         */
        public Duration getPollInterval() {
            return this.pollInterval;
        }

        /**
         * Sets how often each instance reads the overrides.
         * @param pollInterval the interval
         */
        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        /**
         * Returns how long the overrides stay in Redis while no instance runs.
         * @return the retention
         */
        public Duration getRetention() {
            return this.retention;
        }

        /**
         * Sets how long the overrides stay in Redis while no instance runs.
         * @param retention the retention
         */
        public void setRetention(Duration retention) {
            this.retention = retention;
        }

    }

    /**
     * One WARN line per alert and per ban, up to a bound per interval: the rest of an interval's are
     * counted, by limit, in one line when it ends. Events and meters count every alert and ban.
     */
    public static class EventLog {

        /**
         * Most WARN lines for alerts and bans each instance writes per interval; those past it are
         * counted in one line at the interval's end. 0 writes only that line.
         */
        private int maxLines = 10;

        /**
         * The interval the lines are bounded over: it starts with the first line after the
         * previous one ended.
         */
        private Duration interval = Duration.ofMinutes(1);

        /**
         * Returns the most lines per interval.
         * @return the most lines
         */
        public int getMaxLines() {
            return this.maxLines;
        }

        /**
         * Sets the most lines per interval.
         * @param maxLines the most lines, 0 or more
         */
        public void setMaxLines(int maxLines) {
            this.maxLines = maxLines;
        }

        /**
         * Returns the interval the lines are bounded over.
         * @return the interval
         */
        public Duration getInterval() {
            return this.interval;
        }

        /**
         * Sets the interval the lines are bounded over.
         * @param interval the interval
         */
        public void setInterval(Duration interval) {
            this.interval = interval;
        }

    }

    /**
     * Keys banned, or over their limit with a known retry instant, are refused on this instance
     * from memory until that instant, without a Redis round trip. Unbans and resets clear them on
     * every instance through a Redis pub/sub message.
     */
    public static class LocalCache {

        /**
         * Whether to refuse known-refused keys from memory.
         */
        private boolean enabled = true;

        /**
         * Most keys remembered at once per instance.
         */
        private int maxEntries = 10_000;

        /**
         * Longest a key is refused from memory before Redis is asked again, in case an unban
         * message is lost.
         */
        private Duration maxTime = Duration.ofMinutes(1);

        /**
         * Returns whether the local cache is enabled.
         * @return {@code true} unless switched off
         */
        public boolean isEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether the local cache is enabled.
         * @param enabled {@code false} to ask Redis on every call
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * Returns the most keys remembered.
         * @return the most entries
         */
        public int getMaxEntries() {
            return this.maxEntries;
        }

        /**
         * Sets the most keys remembered.
         * @param maxEntries the most entries
         */
        public void setMaxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
        }

        /**
         * Returns the longest a key is refused from memory.
         * @return the longest time
         */
        public Duration getMaxTime() {
            return this.maxTime;
        }

        /**
         * Sets the longest a key is refused from memory.
         * @param maxTime the longest time
         */
        public void setMaxTime(Duration maxTime) {
            this.maxTime = maxTime;
        }

    }

    /**
     * HTTP answers for calls over a limit.
     */
    public static class Web {

        /**
         * HTTP status for calls rejected because their key is banned, such as 403. Calls over a
         * limit without a ban always get 429.
         */
        private int banStatus = 429;

        /**
         * Rate-limit headers on responses of limited endpoints, allowed and rejected alike: the IETF
         * RateLimit-Policy and RateLimit fields, the X-RateLimit-* fields, both, or none.
         */
        private Headers headers = Headers.BOTH;

        /**
         * Base URI of the problem types of refused calls, which end in rate-limit-exceeded, banned
         * or limiter-unavailable. Point it at your own documentation of them; it must be absolute
         * and end with '/'. Defaults to https://limiter.github.io/problems/.
         */
        private java.net.URI problemTypeBase = java.net.URI.create("https://limiter.github.io/problems/");

        /**
         * Returns the status for banned calls.
         * @return the HTTP status code
         */
        public int getBanStatus() {
            return this.banStatus;
        }

        /**
         * Sets the status for banned calls.
         * @param banStatus an HTTP error status code
         */
        public void setBanStatus(int banStatus) {
            this.banStatus = banStatus;
        }

        /**
         * Returns which rate-limit headers responses carry.
         * @return the headers
         */
        public Headers getHeaders() {
            return this.headers;
        }

        /**
         * Sets which rate-limit headers responses carry.
         * @param headers the headers
         */
        public void setHeaders(Headers headers) {
            this.headers = headers;
        }

        /**
         * Returns the base URI of the problem types of refused calls.
         * @return an absolute URI ending with {@code '/'}
         */
        public java.net.URI getProblemTypeBase() {
            return this.problemTypeBase;
        }

        /**
         * Sets the base URI of the problem types of refused calls.
         * @param problemTypeBase an absolute URI ending with {@code '/'}, such as
         * {@code https://example.com/problems/}
         * @throws IllegalArgumentException if it is relative or does not end with {@code '/'}
         */
        public void setProblemTypeBase(java.net.URI problemTypeBase) {
            // The slug is appended, so without the '/' it would run into the last path segment.
            if (!problemTypeBase.isAbsolute() || !problemTypeBase.toString().endsWith("/")) {
                throw new IllegalArgumentException("limiter.web.problem-type-base '" + problemTypeBase
                        + "' must be an absolute URI ending with '/', such as 'https://example.com/problems/'");
            }
            this.problemTypeBase = problemTypeBase;
        }

        /**
         * Which rate-limit headers responses carry.
         */
        public enum Headers {

            /** The IETF httpapi fields: {@code RateLimit-Policy} and {@code RateLimit}. */
            IETF,

            /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset}. */
            X_RATELIMIT,

            /** Both sets. */
            BOTH,

            /** No rate-limit headers. */
            NONE

        }

    }

}
