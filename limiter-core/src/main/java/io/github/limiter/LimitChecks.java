package io.github.limiter;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The rules every limit follows, wherever it is written: in {@code @RateLimit}, in
 * {@code limiter.policies.*} or in code. Callers name the place; the rules are the same.
 *
 * <p>Code that reads limits from a configuration of its own can check them with the same words.
 */
public final class LimitChecks {

    /** Describes the forms a window or a ban's length can be written in, for error messages. */
    public static final String WINDOW_FORMATS = Windows.FORMATS;

    /** The largest integer every script value must stay under: Lua numbers are doubles. */
    static final long EXACT = 1L << 53;

    static final long FIXED_WINDOW_LARGEST = 1L << 49;

    /** The longest window: keeps microsecond arithmetic well inside {@link #EXACT}. */
    static final Duration LONGEST_WINDOW = Duration.ofDays(3650);

    // what a zone id is written with (Europe/Berlin, UTC+01:00, Etc/GMT-2): anything else is SpEL
    private static final Pattern ZONE_ID = Pattern.compile("[A-Za-z0-9~/._+:-]+");

    private LimitChecks() {
    }

    /**
     * Returns whether a calendar limit's zone is written as a zone id ({@code "Europe/Berlin"},
     * {@code "+02:00"}, {@code "UTC"}), which is checked at start, rather than as a SpEL expression
     * evaluated per call ({@code "#customer.zone()"}): whether it uses only the characters zone ids
     * are written with.
     * @param zone the zone as written
     * @return {@code true} for a zone id, valid or not
     */
    public static boolean isZoneId(String zone) {
        return ZONE_ID.matcher(zone.strip()).matches();
    }

    /**
     * Returns why a zone written as a zone id names no zone, or {@code null} if it names one or is
     * a SpEL expression (see {@link #isZoneId}).
     * @param zone the zone as written
     * @return the problem, to follow the zone in a sentence, or {@code null}
     */
    public static @Nullable String zoneProblem(String zone) {
        if (!isZoneId(zone)) {
            return null;
        }
        try {
            ZoneId.of(zone.strip());
            return null;
        }
        catch (DateTimeException ex) {
            return "is not a zone id (" + ex.getMessage() + "); use a region such as Europe/Berlin, an offset "
                    + "such as +02:00, or UTC";
        }
    }

    /**
     * Checks a complete limit, which must have a window and a max.
     * @param algorithm how the limit counts
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @return the first problem, or {@code null}
     */
    public static @Nullable Problem check(Algorithm algorithm, @Nullable Duration window, long max,
            @Nullable Long alertAt, @Nullable Duration banFor) {
        List<Problem> problems = problems(algorithm, window, max, alertAt, banFor);
        return problems.isEmpty() ? null : problems.get(0);
    }

    /**
     * Checks a limit, or a policy that may leave {@code max} to the annotations that use it.
     * @param algorithm how the limit counts, or {@code null} if not set (fixed window)
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @return every problem found, in field order
     */
    public static List<Problem> problems(@Nullable Algorithm algorithm, @Nullable Duration window,
            @Nullable Long max, @Nullable Long alertAt, @Nullable Duration banFor) {
        List<Problem> problems = new ArrayList<>();
        if (window == null) {
            problems.add(new Problem(Field.WINDOW, "", "is not set; every limit needs a window or a calendar"));
        }
        else {
            String problem = Windows.problemWith(window);
            if (problem != null) {
                problems.add(new Problem(Field.WINDOW, window.toString(), problem + "; a window is at least 1ms"));
            }
            else if (window.compareTo(LONGEST_WINDOW) > 0) {
                problems.add(new Problem(Field.WINDOW, window.toString(), "is longer than 3650 days"));
            }
        }
        if (max != null && max < 1) {
            problems.add(new Problem(Field.MAX, max.toString(), "must be at least 1"));
        }
        else if (max != null && window != null && window.compareTo(LONGEST_WINDOW) <= 0) {
            long largest = largestMax(algorithm, window);
            if (max > largest) {
                problems.add(new Problem(Field.MAX, max.toString(), "is too large for " + window + " with "
                        + ((algorithm != null) ? algorithm : Algorithm.FIXED_WINDOW)
                        + ": at most " + largest + ", so that Redis's arithmetic stays exact"));
            }
        }
        if (alertAt != null) {
            if (alertAt < 1) {
                problems.add(new Problem(Field.ALERT_AT, alertAt.toString(), "must be at least 1"));
            }
            else if (max != null && alertAt >= max) {
                problems.add(new Problem(Field.ALERT_AT, alertAt.toString(),
                        "must be less than max (" + max + "): the alert is for calls that are still allowed"));
            }
        }
        if (banFor != null) {
            String problem = Windows.problemWith(banFor);
            if (problem != null) {
                problems.add(new Problem(Field.BAN_FOR, banFor.toString(), problem + "; a ban lasts at least 1ms"));
            }
            else if (max == null) {
                problems.add(new Problem(Field.BAN_FOR, banFor.toString(),
                        "needs a max: a key is banned when it goes past max"));
            }
        }
        return problems;
    }

    /**
     * Parses a window or a ban's length as {@code @RateLimit} writes it: {@code "500ms"},
     * {@code "60s"}, {@code "1m"}, {@code "2h"}, {@code "1d"}, units together such as
     * {@code "1h30m"}, or ISO-8601 such as {@code "PT1M"}. A bare number is refused, not read as
     * milliseconds.
     * @param text the duration as written
     * @return the duration, or {@code null} if {@code text} is in none of these forms
     */
    public static @Nullable Duration parseWindow(String text) {
        return Windows.parse(text);
    }

    /**
     * Returns why {@code limitId} cannot name a limit, or {@code null} if it can: a limit id is not
     * blank and has no {@code '{'}, {@code '}'}, {@code ':'} or whitespace, so it can neither break
     * a Redis hash tag nor be confused with the key that follows it.
     * @param limitId the candidate limit id
     * @return the problem, or {@code null}
     */
    public static @Nullable String limitIdProblem(String limitId) {
        return LimitIds.problemWith(limitId);
    }

    /**
     * Returns why a burst is invalid, or {@code null}: a burst is a token bucket's, at least its
     * {@code max}, and its tokens times the window in milliseconds stay exact in the script.
     * @param algorithm the algorithm
     * @param window the window
     * @param max the calls allowed per window
     * @param burst the burst, or 0 for none
     * @return the problem, or {@code null}
     */
    public static @Nullable Problem burstProblem(Algorithm algorithm, Duration window, long max, long burst) {
        if (burst == 0) {
            return null;
        }
        if (algorithm != Algorithm.TOKEN_BUCKET) {
            return new Problem(Field.BURST, Long.toString(burst), "is a token bucket's: " + algorithm
                    + " allows max calls per window, with no bucket to save them in; use algorithm TOKEN_BUCKET");
        }
        if (burst < max) {
            return new Problem(Field.BURST, Long.toString(burst), "is below max (" + max + "): a bucket holds at least "
                    + "what it refills in a window");
        }
        long largest = largestMax(algorithm, window);
        if (burst > largest) {
            return new Problem(Field.BURST, Long.toString(burst), "is too large to count exactly with a window of "
                    + window.toMillis() + "ms; at most " + largest);
        }
        return null;
    }

    /**
     * Returns the largest max an algorithm counts exactly for a window: the two-counter and bucket
     * algorithms multiply max by the window in milliseconds (three times, at most); the fixed
     * window's count stays below 2^51, where the script marks a window with a ban.
     * @param algorithm the algorithm, or {@code null} for the fixed window
     * @param window the window
     * @return the largest max
     */
    static long largestMax(@Nullable Algorithm algorithm, Duration window) {
        if (algorithm == Algorithm.SLIDING_WINDOW || algorithm == Algorithm.TOKEN_BUCKET) {
            return EXACT / (3 * Math.max(window.toMillis(), 1));
        }
        if (algorithm == null || algorithm == Algorithm.FIXED_WINDOW) {
            // a window's count, with a call's cost on top, stays below the script's ban mark (2^51)
            return FIXED_WINDOW_LARGEST;
        }
        return EXACT;
    }

    /**
     * A field of a limit.
     */
    public enum Field {

        /** The algorithm. */
        ALGORITHM("algorithm", "algorithm"),

        /** The window. */
        WINDOW("window", "window"),

        /** The calls allowed per window. */
        MAX("max", "max"),

        /** The alert threshold. */
        ALERT_AT("alertAt", "alert-at"),

        /** The ban's length. */
        BAN_FOR("banFor", "ban-for"),

        /** A token bucket's burst. */
        BURST("burst", "burst");

        private final String attribute;

        private final String property;

        Field(String attribute, String property) {
            this.attribute = attribute;
            this.property = property;
        }

        /**
         * Returns the field's name on {@code @RateLimit}.
         * @return the attribute name, such as {@code alertAt}
         */
        public String attribute() {
            return this.attribute;
        }

        /**
         * Returns the field's name in {@code limiter.policies.<name>}.
         * @return the property name, such as {@code alert-at}
         */
        public String property() {
            return this.property;
        }

    }

    /**
     * A field whose value breaks a rule.
     *
     * @param field the field
     * @param value the value as given
     * @param message what is wrong, to follow the field and value in a sentence
     */
    public record Problem(Field field, String value, String message) {

    }

}
