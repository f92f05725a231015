package io.github.limiter;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a limit allows, and what happens past it: at most {@code max} calls per {@code window},
 * counted by an {@link Algorithm}; optionally an alert on the first call past {@code alertAt}, and
 * a ban of {@code banFor} for a key that goes past {@code max}. In {@link Mode#SHADOW shadow} mode
 * it decides and reports as usual but never stops a call.
 *
 * <pre class="code">
 * Limit answers = Limit.of(20, Duration.ofMinutes(1)).withAlertAt(10).withBanFor(Duration.ofMinutes(15));
 * </pre>
 *
 * @param algorithm how calls are counted
 * @param max the calls allowed per key and window, at least 1
 * @param window the window's length, at least 1 ms and a whole number of milliseconds
 * @param alertAt the count after which the next call raises a {@link RateLimitAlertEvent}, between
 * 1 and {@code max - 1}; 0 for no alert
 * @param banFor how long a key that goes past {@code max} is banned, at least 1 ms and a whole
 * number of milliseconds; {@code null} for no ban
 * @param mode whether the limit stops calls or only reports what it would do
 * @since 0.1.0
 */
public record Limit(Algorithm algorithm, long max, Duration window, long alertAt, @Nullable Duration banFor,
        Mode mode) {

    /**
     * Validates the components.
     * @param algorithm how calls are counted
     * @param max the calls allowed per window
     * @param window the window's length
     * @param alertAt the alert threshold, or 0
     * @param banFor the ban's length, or {@code null}
     * @param mode the mode
     * @throws IllegalArgumentException if a component is invalid
     */
    public Limit {
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        Objects.requireNonNull(mode, "mode must not be null");
        Objects.requireNonNull(window, "window must not be null");
        LimitChecks.Problem problem = LimitChecks.check(algorithm, window, max, (alertAt != 0) ? alertAt : null,
                banFor);
        if (problem != null) {
            throw new IllegalArgumentException(problem.field().attribute() + " " + problem.value() + " "
                    + problem.message());
        }
    }

    /**
     * Returns a fixed-window limit of {@code max} calls per {@code window}, with no alert and no
     * ban.
     * @param max the calls allowed per window, at least 1
     * @param window the window's length, at least 1 ms
     * @return the limit
     */
    public static Limit of(long max, Duration window) {
        return new Limit(Algorithm.FIXED_WINDOW, max, window, 0, null, Mode.ENFORCE);
    }

    /**
     * Returns a copy counted by another algorithm.
     * @param algorithm the algorithm
     * @return the new limit
     */
    public Limit withAlgorithm(Algorithm algorithm) {
        return new Limit(algorithm, this.max, this.window, this.alertAt, this.banFor, this.mode);
    }

    /**
     * Returns a copy that raises an alert on the first call past {@code alertAt} in a window.
     * @param alertAt the threshold, between 1 and {@code max - 1}
     * @return the new limit
     */
    public Limit withAlertAt(long alertAt) {
        return new Limit(this.algorithm, this.max, this.window, alertAt, this.banFor, this.mode);
    }

    /**
     * Returns a copy that bans a key for {@code banFor} when it goes past {@code max}.
     * @param banFor the ban's length, at least 1 ms
     * @return the new limit
     */
    public Limit withBanFor(Duration banFor) {
        return new Limit(this.algorithm, this.max, this.window, this.alertAt,
                Objects.requireNonNull(banFor, "banFor must not be null"), this.mode);
    }

    /**
     * Returns a copy in another mode.
     * @param mode the mode
     * @return the new limit
     */
    public Limit withMode(Mode mode) {
        return new Limit(this.algorithm, this.max, this.window, this.alertAt, this.banFor, mode);
    }

    /**
     * Whether a limit stops calls.
     *
     * @since 0.1.0
     */
    public enum Mode {

        /** Calls past the limit are rejected, and keys past it banned. */
        ENFORCE,

        /**
         * Every call passes. The limit still counts, raises alerts, and reports in decisions, logs and
         * metrics what it would have rejected or banned; its would-be bans are kept apart from real
         * ones and publish no {@link RateLimitBanEvent}. For rolling a new limit out safely.
         */
        SHADOW

    }

}
