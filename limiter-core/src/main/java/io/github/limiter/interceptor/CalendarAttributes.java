package io.github.limiter.interceptor;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.function.Function;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.LimitChecks;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import org.jspecify.annotations.Nullable;

/**
 * The {@code calendar} and {@code zone} of one {@link RateLimit @RateLimit}, merged over its
 * policy's and checked: a calendar excludes a window and every algorithm but the fixed window, a
 * zone needs a calendar, and a zone written as a zone id must name one; else the zone is a SpEL
 * expression, evaluated per call.
 *
 * @param calendar the calendar, or {@code null} for a limit with a window
 * @param zone the calendar's zone, {@code UTC} for one chosen per call (what descriptions show), or
 * {@code null} without a calendar
 * @param expression the zone chosen per call, or {@code null}
 */
record CalendarAttributes(@Nullable CalendarWindow calendar, @Nullable ZoneId zone,
        @Nullable ZoneExpression expression) {

    /** Makes the start-up failure of an attribute: its name, its value as written, what is wrong. */
    @FunctionalInterface
    interface Refusal {

        InvalidRateLimitException of(String attribute, String value, String problem);

    }

    /**
     * The calendar the annotation writes, else the policy's unless the annotation writes a window:
     * what the annotation writes wins over the policy.
     * @param window the annotation's window, resolved; blank if it has none
     */
    static @Nullable CalendarWindow calendar(RateLimit annotation, String window, LimitPolicy policy,
            Refusal invalid) {
        CalendarWindow[] calendars = annotation.calendar();
        if (calendars.length > 1) {
            throw invalid.of("calendar", Arrays.toString(calendars), "names more than one calendar period");
        }
        if (calendars.length == 1) {
            return calendars[0];
        }
        return window.isBlank() ? policy.calendar() : null;
    }

    /**
     * Checks a calendar against the limit's algorithm, and resolves its zone.
     * @param calendar the calendar, or {@code null}
     * @param zone the annotation's zone, resolved; blank if it has none
     * @param fromPolicy what a message adds about a value taken from the policy, by its property
     * @param parseZone parses a zone expression and checks the variables it reads
     */
    static CalendarAttributes resolve(@Nullable CalendarWindow calendar, Algorithm algorithm, String zone,
            LimitPolicy policy, Function<String, String> fromPolicy, Function<String, ZoneExpression> parseZone,
            Refusal invalid) {
        if (calendar == null) {
            if (!zone.isBlank()) {
                throw invalid.of("zone", zone, "needs a calendar: a zone says whose calendar days, weeks, months "
                        + "or years count; set calendar (CalendarWindow.DAY, WEEK, MONTH or YEAR) or remove zone");
            }
            return new CalendarAttributes(null, null, null);
        }
        if (algorithm != Algorithm.FIXED_WINDOW) {
            throw invalid.of("algorithm", algorithm.name(), "cannot count calendar " + calendar + " periods: a "
                    + "calendar limit is a fixed window by nature; leave algorithm unset or FIXED_WINDOW"
                    + fromPolicy.apply("algorithm"));
        }
        String text = !zone.isBlank() ? zone : policy.zone();
        if (text == null || text.isBlank()) {
            return new CalendarAttributes(calendar, ZoneOffset.UTC, null);
        }
        if (LimitChecks.isZoneId(text)) {
            String problem = LimitChecks.zoneProblem(text);
            if (problem != null) {
                throw invalid.of("zone", text, problem + (zone.isBlank() ? fromPolicy.apply("zone") : ""));
            }
            return new CalendarAttributes(calendar, ZoneId.of(text.strip()), null);
        }
        // each call counts in the zone its expression gives; descriptions show UTC's
        return new CalendarAttributes(calendar, ZoneOffset.UTC, parseZone.apply(text));
    }

    /** The window a calendar limit is checked and described with, else {@code window}. */
    @Nullable Duration window(@Nullable Duration window) {
        return (this.calendar != null) ? this.calendar.estimatedLength() : window;
    }

}
