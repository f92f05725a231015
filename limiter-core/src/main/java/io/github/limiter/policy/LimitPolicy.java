package io.github.limiter.policy;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;

/**
 * A named set of limit settings that {@code @RateLimit(policy = "...")} takes its unset attributes
 * from. The starter builds these from {@code limiter.policies.*}.
 *
 * @param algorithm the algorithm, or {@code null} if not set
 * @param window the window, or {@code null} if not set
 * @param max the calls allowed per window, or {@code null} if not set
 * @param alertAt the alert threshold, or {@code null} if not set
 * @param banFor the ban's length, or {@code null} if not set
 * @param mode the mode, or {@code null} if not set
 * @param onFailure what calls do when Redis cannot decide, or {@code null} for the limiter's default
 * @param calendar the calendar period counted in instead of a window, or {@code null} if not set
 * @param zone the calendar's zone, a zone id or a SpEL expression as {@link RateLimit#zone()} takes
 * it, or {@code null} if not set
 * @param burst a token bucket's burst ({@link RateLimit#burst()}), or {@code null} if not set
 * @param maxWait how long a call over the limit may wait for room ({@link RateLimit#maxWait()}), or
 * {@code null} if not set
 * @param limits the policy's several limits, decided together, each taking the settings it leaves
 * unset from this policy ({@link #limit(int)}); empty for a policy of one limit
 * @since 0.1.0
 */
public record LimitPolicy(@Nullable Algorithm algorithm, @Nullable Duration window, @Nullable Long max,
        @Nullable Long alertAt, @Nullable Duration banFor, Limit.@Nullable Mode mode, @Nullable OnFailure onFailure,
        @Nullable CalendarWindow calendar, @Nullable String zone, @Nullable Long burst, @Nullable Duration maxWait,
        List<LimitPolicy> limits) {

    /**
     * Validates the components.
     * @param algorithm the algorithm, or {@code null} if not set
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @param mode the mode, or {@code null} if not set
     * @param onFailure what calls do when Redis cannot decide, or {@code null} if not set
     * @param calendar the calendar period, or {@code null} if not set
     * @param zone the calendar's zone, or {@code null} if not set
     * @param burst a token bucket's burst, or {@code null} if not set
     * @param maxWait how long a call may wait for room, or {@code null} if not set
     * @param limits the several limits, or empty for one
     * @throws IllegalArgumentException if a limit of {@code limits} has several limits itself
     */
    public LimitPolicy {
        limits = List.copyOf(Objects.requireNonNull(limits, "limits must not be null"));
        for (LimitPolicy limit : limits) {
            if (!limit.limits().isEmpty()) {
                throw new IllegalArgumentException("a limit of a policy's limits has limits of its own: "
                        + "a policy's limits are one level deep");
            }
        }
    }

    /**
     * A policy of one limit.
     * @param algorithm the algorithm, or {@code null} if not set
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @param mode the mode, or {@code null} if not set
     * @param onFailure what calls do when Redis cannot decide, or {@code null} for the limiter's default
     * @param calendar the calendar period counted in instead of a window, or {@code null} if not set
     * @param zone the calendar's zone, or {@code null} if not set
     * @param burst a token bucket's burst, or {@code null} if not set
     */
    public LimitPolicy(@Nullable Algorithm algorithm, @Nullable Duration window, @Nullable Long max,
            @Nullable Long alertAt, @Nullable Duration banFor, Limit.@Nullable Mode mode,
            @Nullable OnFailure onFailure, @Nullable CalendarWindow calendar, @Nullable String zone,
            @Nullable Long burst) {
        this(algorithm, window, max, alertAt, banFor, mode, onFailure, calendar, zone, burst, null, List.of());
    }

    /**
     * A policy without a burst.
     * @param algorithm the algorithm, or {@code null} if not set
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @param mode the mode, or {@code null} if not set
     * @param onFailure what calls do when Redis cannot decide, or {@code null} for the limiter's default
     * @param calendar the calendar period counted in instead of a window, or {@code null} if not set
     * @param zone the calendar's zone, or {@code null} if not set
     */
    public LimitPolicy(@Nullable Algorithm algorithm, @Nullable Duration window, @Nullable Long max,
            @Nullable Long alertAt, @Nullable Duration banFor, Limit.@Nullable Mode mode,
            @Nullable OnFailure onFailure, @Nullable CalendarWindow calendar, @Nullable String zone) {
        this(algorithm, window, max, alertAt, banFor, mode, onFailure, calendar, zone, null, null, List.of());
    }

    /**
     * A policy without a calendar.
     * @param algorithm the algorithm, or {@code null} if not set
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @param mode the mode, or {@code null} if not set
     * @param onFailure what calls do when Redis cannot decide, or {@code null} for the limiter's default
     */
    public LimitPolicy(@Nullable Algorithm algorithm, @Nullable Duration window, @Nullable Long max,
            @Nullable Long alertAt, @Nullable Duration banFor, Limit.@Nullable Mode mode,
            @Nullable OnFailure onFailure) {
        this(algorithm, window, max, alertAt, banFor, mode, onFailure, null, null, null, null, List.of());
    }

    /**
     * A policy with the settings that decide how calls are counted, and no mode.
     * @param algorithm the algorithm, or {@code null} if not set
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     */
    public LimitPolicy(@Nullable Algorithm algorithm, @Nullable Duration window, @Nullable Long max,
            @Nullable Long alertAt, @Nullable Duration banFor) {
        this(algorithm, window, max, alertAt, banFor, null, null, null, null, null, null, List.of());
    }

    /**
     * Returns this policy with how long a call over its limit may wait for room.
     * @param maxWait the longest wait, or {@code null} for none
     * @return a copy with {@link #maxWait()} set
     */
    public LimitPolicy withMaxWait(@Nullable Duration maxWait) {
        return new LimitPolicy(this.algorithm, this.window, this.max, this.alertAt, this.banFor, this.mode,
                this.onFailure, this.calendar, this.zone, this.burst, maxWait, this.limits);
    }

    /**
     * Returns this policy with several limits, decided together: "10 a second and 1,000 an hour".
     * @param limits the limits, each taking what it leaves unset from this policy
     * @return a copy with {@link #limits()} set
     * @throws IllegalArgumentException if a limit has limits of its own
     */
    public LimitPolicy withLimits(List<LimitPolicy> limits) {
        return new LimitPolicy(this.algorithm, this.window, this.max, this.alertAt, this.banFor, this.mode,
                this.onFailure, this.calendar, this.zone, this.burst, this.maxWait, limits);
    }

    /**
     * Returns one of the policy's several limits with what it leaves unset taken from this policy:
     * the limit as {@code @RateLimit(policy = ...)} applies it, and as its own overrides change it.
     * @param index the limit's index in {@link #limits()}, from 0
     * @return the limit, merged over this policy's settings, with no limits of its own
     * @throws IndexOutOfBoundsException if there is no such limit
     */
    public LimitPolicy limit(int index) {
        LimitPolicy part = this.limits.get(index);
        // a window or a calendar set on the limit replaces both of the policy's
        boolean counted = part.window != null || part.calendar != null;
        return new LimitPolicy(pick(part.algorithm, this.algorithm), counted ? part.window : this.window,
                pick(part.max, this.max), pick(part.alertAt, this.alertAt), pick(part.banFor, this.banFor),
                pick(part.mode, this.mode), pick(part.onFailure, this.onFailure),
                counted ? part.calendar : this.calendar, pick(part.zone, this.zone), pick(part.burst, this.burst),
                pick(part.maxWait, this.maxWait), List.of());
    }

    private static <T> @Nullable T pick(@Nullable T own, @Nullable T inherited) {
        return (own != null) ? own : inherited;
    }

}
