package io.github.limiter.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The rules every limit follows, wherever it is written: in {@code @RateLimit}, in
 * {@code limiter.policies.*} or in code. Callers name the place; the rules are the same.
 *
 * <p>Internal API; it may change in any release.
 */
public final class LimitChecks {

    private LimitChecks() {
    }

    /**
     * Checks a complete limit, which must have a window and a max.
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @return the first problem, or {@code null}
     */
    public static @Nullable Problem check(@Nullable Duration window, long max, @Nullable Long alertAt,
            @Nullable Duration banFor) {
        List<Problem> problems = problems(window, max, alertAt, banFor);
        return problems.isEmpty() ? null : problems.get(0);
    }

    /**
     * Checks a limit, or a policy that may leave {@code max} to the annotations that use it.
     * @param window the window, or {@code null} if not set
     * @param max the calls allowed per window, or {@code null} if not set
     * @param alertAt the alert threshold, or {@code null} if not set
     * @param banFor the ban's length, or {@code null} if not set
     * @return every problem found, in field order
     */
    public static List<Problem> problems(@Nullable Duration window, @Nullable Long max, @Nullable Long alertAt,
            @Nullable Duration banFor) {
        List<Problem> problems = new ArrayList<>();
        if (window == null) {
            problems.add(new Problem(Field.WINDOW, "", "is not set; every limit needs a window"));
        }
        else {
            String problem = Windows.problemWith(window);
            if (problem != null) {
                problems.add(new Problem(Field.WINDOW, window.toString(), problem + "; a window is at least 1ms"));
            }
        }
        if (max != null && max < 1) {
            problems.add(new Problem(Field.MAX, max.toString(), "must be at least 1"));
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
     * A field of a limit.
     */
    public enum Field {

        /** The window. */
        WINDOW("window", "window"),

        /** The calls allowed per window. */
        MAX("max", "max"),

        /** The alert threshold. */
        ALERT_AT("alertAt", "alert-at"),

        /** The ban's length. */
        BAN_FOR("banFor", "ban-for");

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
