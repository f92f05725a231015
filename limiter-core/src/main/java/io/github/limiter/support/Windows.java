package io.github.limiter.support;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Parses and checks window lengths: {@code "500ms"}, {@code "60s"}, {@code "1m"}, {@code "2h"},
 * {@code "1d"}, or ISO-8601 such as {@code "PT1M"}.
 *
 * <p>Internal API; it may change in any release.
 */
public final class Windows {

    /** Describes the accepted forms, for error messages. */
    public static final String FORMATS = "use a number with ms, s, m, h or d (500ms, 60s, 1m, 2h) "
            + "or an ISO-8601 duration (PT1M)";

    private static final Pattern SIMPLE = Pattern.compile("(\\d{1,15})(ms|s|m|h|d)");

    private Windows() {
    }

    /**
     * Parses a window.
     * @param text the window as written in an annotation
     * @return the duration, or {@code null} if {@code text} is in no accepted form
     */
    public static @Nullable Duration parse(String text) {
        String trimmed = text.trim();
        Matcher simple = SIMPLE.matcher(trimmed.toLowerCase(Locale.ROOT));
        if (simple.matches()) {
            long amount = Long.parseLong(simple.group(1));
            return switch (simple.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        if (!trimmed.isEmpty() && (trimmed.charAt(0) == 'P' || trimmed.charAt(0) == 'p' || trimmed.charAt(0) == '-')) {
            try {
                return Duration.parse(trimmed);
            }
            catch (DateTimeParseException ex) {
                return null;
            }
        }
        return null;
    }

    /**
     * Returns why {@code window} cannot be a window, or {@code null} if it can: a window is at least
     * one millisecond and a whole number of milliseconds, since Redis expiries are in milliseconds.
     * @param window the candidate window
     * @return the problem, or {@code null}
     */
    public static @Nullable String problemWith(Duration window) {
        if (window.compareTo(Duration.ofMillis(1)) < 0) {
            return "is under 1 ms";
        }
        if (window.getNano() % 1_000_000 != 0) {
            return "is not a whole number of milliseconds";
        }
        return null;
    }

}
