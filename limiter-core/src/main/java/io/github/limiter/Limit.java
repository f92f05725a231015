package io.github.limiter;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
 * Limit monthly = Limit.of(10_000, CalendarWindow.MONTH, ZoneId.of("Europe/Berlin"));
 * </pre>
 *
 * <p>A calendar limit ({@code calendar} set) counts in the calendar periods of its zone instead of
 * windows of one length; it is a fixed window by nature, and its {@code window} is the period's
 * {@linkplain CalendarWindow#estimatedLength() estimated length}.
 *
 * @param algorithm how calls are counted
 * @param max the calls allowed per key and window, at least 1
 * @param window the window's length, at least 1 ms and a whole number of milliseconds; for a
 * calendar limit, {@code null} or its calendar's estimated length, which it is set to
 * @param alertAt the count after which the next call raises a {@link RateLimitAlertEvent}, between
 * 1 and {@code max - 1}; 0 for no alert
 * @param banFor how long a key that goes past {@code max} is banned, at least 1 ms and a whole
 * number of milliseconds; {@code null} for no ban
 * @param mode whether the limit stops calls or only reports what it would do
 * @param calendar the calendar period the limit counts in, or {@code null} for a window of one
 * length
 * @param zone the zone whose calendar counts, {@code UTC} if {@code null}; {@code null} for a limit
 * without a calendar
 * @param burst for a token bucket, the tokens it holds, from {@code max} up: it refills {@code max}
 * per window and lets a key that saved up take {@code burst} at once; 0 for {@code max}
 * @since 0.1.0
 */
public record Limit(Algorithm algorithm, long max, Duration window, long alertAt, @Nullable Duration banFor,
        Mode mode, @Nullable CalendarWindow calendar, @Nullable ZoneId zone, long burst) {

    /**
     * Validates the components.
     * @param algorithm how calls are counted
     * @param max the calls allowed per window
     * @param window the window's length
     * @param alertAt the alert threshold, or 0
     * @param banFor the ban's length, or {@code null}
     * @param mode the mode
     * @param calendar the calendar period, or {@code null}
     * @param zone the calendar's zone, or {@code null}
     * @param burst a token bucket's burst, or 0
     * @throws IllegalArgumentException if a component is invalid
     */
    public Limit {
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        Objects.requireNonNull(mode, "mode must not be null");
        if (calendar != null) {
            if (algorithm != Algorithm.FIXED_WINDOW) {
                throw new IllegalArgumentException("algorithm " + algorithm + " cannot count calendar " + calendar
                        + ": a calendar limit is a fixed window by nature");
            }
            if (window != null && !window.equals(calendar.estimatedLength())) {
                throw new IllegalArgumentException("window " + window + " and calendar " + calendar
                        + " exclude each other: a calendar limit counts calendar periods");
            }
            window = calendar.estimatedLength();
            zone = (zone != null) ? zone : ZoneOffset.UTC;
        }
        else if (zone != null) {
            throw new IllegalArgumentException("zone " + zone + " needs a calendar: only calendar periods have one");
        }
        Objects.requireNonNull(window, "window must not be null");
        LimitChecks.Problem problem = LimitChecks.check(algorithm, window, max, (alertAt != 0) ? alertAt : null,
                banFor);
        if (problem == null) {
            problem = LimitChecks.burstProblem(algorithm, window, max, burst);
        }
        if (problem != null) {
            throw new IllegalArgumentException(problem.field().attribute() + " " + problem.value() + " "
                    + problem.message());
        }
    }

    /**
     * A limit without a burst of its own.
     * @param algorithm how calls are counted
     * @param max the calls allowed per window
     * @param window the window's length
     * @param alertAt the alert threshold, or 0
     * @param banFor the ban's length, or {@code null}
     * @param mode the mode
     * @param calendar the calendar period, or {@code null}
     * @param zone the calendar's zone, or {@code null}
     * @throws IllegalArgumentException if a component is invalid
     */
    public Limit(Algorithm algorithm, long max, Duration window, long alertAt, @Nullable Duration banFor,
            Mode mode, @Nullable CalendarWindow calendar, @Nullable ZoneId zone) {
        this(algorithm, max, window, alertAt, banFor, mode, calendar, zone, 0);
    }

    /**
     * Returns the tokens a key may take at once: the burst of a token bucket that has one, else
     * {@code max}.
     * @return the capacity
     */
    public long capacity() {
        return (this.burst > 0) ? this.burst : this.max;
    }

    /**
     * A limit without a calendar.
     * @param algorithm how calls are counted
     * @param max the calls allowed per window
     * @param window the window's length
     * @param alertAt the alert threshold, or 0
     * @param banFor the ban's length, or {@code null}
     * @param mode the mode
     * @throws IllegalArgumentException if a component is invalid
     */
    public Limit(Algorithm algorithm, long max, Duration window, long alertAt, @Nullable Duration banFor,
            Mode mode) {
        this(algorithm, max, window, alertAt, banFor, mode, null, null);
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
     * Returns a limit of {@code max} calls per calendar period in a zone, with no alert and no
     * ban.
     * @param max the calls allowed per period, at least 1
     * @param calendar the calendar period
     * @param zone the zone whose calendar counts
     * @return the limit
     */
    public static Limit of(long max, CalendarWindow calendar, ZoneId zone) {
        return new Limit(Algorithm.FIXED_WINDOW, max, null, 0, null, Mode.ENFORCE,
                Objects.requireNonNull(calendar, "calendar must not be null"),
                Objects.requireNonNull(zone, "zone must not be null"));
    }

    /**
     * Returns a copy counted by another algorithm.
     * @param algorithm the algorithm
     * @return the new limit
     */
    public Limit withAlgorithm(Algorithm algorithm) {
        return new Limit(algorithm, this.max, this.window, this.alertAt, this.banFor, this.mode, this.calendar,
                this.zone, this.burst);
    }

    /**
     * Returns a copy that raises an alert on the first call past {@code alertAt} in a window.
     * @param alertAt the threshold, between 1 and {@code max - 1}
     * @return the new limit
     */
    public Limit withAlertAt(long alertAt) {
        return new Limit(this.algorithm, this.max, this.window, alertAt, this.banFor, this.mode, this.calendar,
                this.zone, this.burst);
    }

    /**
     * Returns a copy that bans a key for {@code banFor} when it goes past {@code max}.
     * @param banFor the ban's length, at least 1 ms
     * @return the new limit
     */
    public Limit withBanFor(Duration banFor) {
        return new Limit(this.algorithm, this.max, this.window, this.alertAt,
                Objects.requireNonNull(banFor, "banFor must not be null"), this.mode, this.calendar, this.zone,
                this.burst);
    }

    /**
     * Returns a copy in another mode.
     * @param mode the mode
     * @return the new limit
     */
    public Limit withMode(Mode mode) {
        return new Limit(this.algorithm, this.max, this.window, this.alertAt, this.banFor, mode, this.calendar,
                this.zone, this.burst);
    }

    /**
     * Returns a copy of a calendar limit that counts in another zone's calendar.
     * @param zone the zone
     * @return the new limit
     * @throws IllegalArgumentException if this limit has no calendar
     */
    public Limit withZone(ZoneId zone) {
        return new Limit(this.algorithm, this.max, this.window, this.alertAt, this.banFor, this.mode, this.calendar,
                Objects.requireNonNull(zone, "zone must not be null"), this.burst);
    }

    /**
     * Returns a copy of a token bucket that holds up to {@code burst} tokens, refilled at
     * {@code max} per window.
     * @param burst the tokens a key may take at once, at least {@code max}
     * @return the new limit
     * @throws IllegalArgumentException if this limit is no token bucket, or the burst is below max
     */
    public Limit withBurst(long burst) {
        return new Limit(this.algorithm, this.max, this.window, this.alertAt, this.banFor, this.mode, this.calendar,
                this.zone, burst);
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
