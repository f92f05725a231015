package io.github.limiter.policy;

import java.time.Duration;

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
 * @since 0.1.0
 */
public record LimitPolicy(@Nullable Algorithm algorithm, @Nullable Duration window, @Nullable Long max,
        @Nullable Long alertAt, @Nullable Duration banFor, Limit.@Nullable Mode mode, @Nullable OnFailure onFailure,
        @Nullable CalendarWindow calendar, @Nullable String zone, @Nullable Long burst) {

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
        this(algorithm, window, max, alertAt, banFor, mode, onFailure, calendar, zone, null);
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
        this(algorithm, window, max, alertAt, banFor, mode, onFailure, null, null, null);
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
        this(algorithm, window, max, alertAt, banFor, null, null, null, null, null);
    }

}
