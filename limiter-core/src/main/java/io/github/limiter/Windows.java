package io.github.limiter;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * Parses and checks window lengths: {@code "500ms"}, {@code "60s"}, {@code "1m"}, {@code "2h"},
 * {@code "1d"}, units together such as {@code "1h30m"}, or ISO-8601 such as {@code "PT1M"}.
 * {@link LimitChecks} is how other packages reach it.
 */
final class Windows {

    /** Describes the accepted forms, for error messages. */
    static final String FORMATS = "use a number with a unit (500ms, 60s, 1m, 2h, 1d), units together "
            + "(1h30m) or an ISO-8601 duration (PT1M)";

    private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+");

    private Windows() {
    }

    /**
     * Parses a window or a ban's length with Spring's {@link DurationFormatterUtils}, as
     * {@code @Scheduled} and {@code @Retryable} parse theirs, except that a number needs a unit: a
     * bare {@code "60"} is refused rather than read as 60 milliseconds.
     * @param text the duration as written in an annotation
     * @return the duration, or {@code null} if {@code text} is in no accepted form
     */
    static @Nullable Duration parse(String text) {
        String trimmed = text.trim();
        if (trimmed.isEmpty() || BARE_NUMBER.matcher(trimmed).matches()) {
            return null;
        }
        try {
            return DurationFormatterUtils.detectAndParse(trimmed);
        }
        catch (IllegalArgumentException | DateTimeParseException | ArithmeticException ex) {
            return null;
        }
    }

    /**
     * Returns why {@code window} cannot be a window, or {@code null} if it can: a window is at least
     * one millisecond and a whole number of milliseconds, since Redis expiries are in milliseconds.
     * @param window the candidate window
     * @return the problem, or {@code null}
     */
    static @Nullable String problemWith(Duration window) {
        if (window.compareTo(Duration.ofMillis(1)) < 0) {
            return "is under 1 ms";
        }
        if (window.getNano() % 1_000_000 != 0) {
            return "is not a whole number of milliseconds";
        }
        return null;
    }

}
