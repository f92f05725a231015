package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.policy.LimitPolicy;
import org.jspecify.annotations.Nullable;

/**
 * A named policy, {@code limiter.policies.<name>}: the settings that
 * {@code @RateLimit(policy = "<name>")} takes its unset attributes from; and a URL rule's limit
 * written inline ({@link LimiterWebProperties.Rule}).
 *
 * @since 0.1.0
 */
public class LimiterPolicyProperties {

    /**
     * How calls are counted: fixed-window, sliding-log, sliding-window or token-bucket.
     * Defaults to fixed-window.
     */
    private @Nullable Algorithm algorithm;

    /**
     * Length of the window, such as 60s or 1m. Required, unless the policy has a calendar.
     */
    private @Nullable Duration window;

    /**
     * Calendar period counted in instead of a window: day, week (ISO, from Monday), month or
     * year, in the policy's zone. Excludes window; counted as a fixed window.
     */
    private @Nullable CalendarWindow calendar;

    /**
     * Zone whose calendar counts, for a policy with a calendar: a zone id such as
     * Europe/Berlin, or a SpEL expression evaluated on each call such as #customer.zone().
     * Defaults to UTC.
     */
    private @Nullable String zone;

    /**
     * Whether the policy's limits stop calls (enforce) or only count, alert and report what they
     * would have rejected or banned (shadow). Defaults to enforce.
     */
    private Limit.@Nullable Mode mode;

    /**
     * What calls under this policy do when Redis cannot decide: allow, deny or local. Defaults to
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
     * For a token-bucket policy, the tokens its bucket holds, at least max: it refills max per
     * window and lets a key that saved up take this many at once. Defaults to max.
     */
    private @Nullable Long burst;

    /**
     * How long a call over the limit may wait for room instead of being refused, such as 2s: it
     * waits as long as Redis says, is decided again, and is refused only when the wait would pass
     * this. Blocking methods wait on their thread; CompletableFuture, Mono, Flux and suspend
     * functions without holding one. Defaults to no wait.
     */
    private @Nullable Duration maxWait;

    /**
     * Several limits decided together, all or nothing, such as 10 per 1s and 1000 per 1h: each
     * takes what it leaves unset from this policy, has its own alert and ban, and is overridden
     * on its own as <policy>.<index> (api.0, api.1). One level deep.
     */
    private List<LimiterPolicyProperties> limits = new ArrayList<>();

    public @Nullable Algorithm getAlgorithm() {
        return this.algorithm;
    }

    public void setAlgorithm(@Nullable Algorithm algorithm) {
        this.algorithm = algorithm;
    }

    public @Nullable OnFailure getOnFailure() {
        return this.onFailure;
    }

    public void setOnFailure(@Nullable OnFailure onFailure) {
        this.onFailure = onFailure;
    }

    public Limit.@Nullable Mode getMode() {
        return this.mode;
    }

    public void setMode(Limit.@Nullable Mode mode) {
        this.mode = mode;
    }

    public @Nullable Duration getWindow() {
        return this.window;
    }

    public void setWindow(@Nullable Duration window) {
        this.window = window;
    }

    public @Nullable CalendarWindow getCalendar() {
        return this.calendar;
    }

    public void setCalendar(@Nullable CalendarWindow calendar) {
        this.calendar = calendar;
    }

    public @Nullable String getZone() {
        return this.zone;
    }

    public void setZone(@Nullable String zone) {
        this.zone = zone;
    }

    public @Nullable Long getMax() {
        return this.max;
    }

    public void setMax(@Nullable Long max) {
        this.max = max;
    }

    public @Nullable Long getAlertAt() {
        return this.alertAt;
    }

    public void setAlertAt(@Nullable Long alertAt) {
        this.alertAt = alertAt;
    }

    public @Nullable Duration getBanFor() {
        return this.banFor;
    }

    public void setBanFor(@Nullable Duration banFor) {
        this.banFor = banFor;
    }

    public @Nullable Long getBurst() {
        return this.burst;
    }

    public void setBurst(@Nullable Long burst) {
        this.burst = burst;
    }

    public @Nullable Duration getMaxWait() {
        return this.maxWait;
    }

    public void setMaxWait(@Nullable Duration maxWait) {
        this.maxWait = maxWait;
    }

    public List<LimiterPolicyProperties> getLimits() {
        return this.limits;
    }

    public void setLimits(List<LimiterPolicyProperties> limits) {
        this.limits = limits;
    }

    /**
     * The policy as the core's model has it, with its several limits, if any; those limits' own
     * {@code limits} are left out (validation refuses them).
     * @return the policy
     */
    LimitPolicy toPolicy() {
        return single().withLimits(this.limits.stream().map(LimiterPolicyProperties::single).toList());
    }

    private LimitPolicy single() {
        return new LimitPolicy(this.algorithm, this.window, this.max, this.alertAt, this.banFor, this.mode,
                this.onFailure, this.calendar, this.zone, this.burst).withMaxWait(this.maxWait);
    }

}
