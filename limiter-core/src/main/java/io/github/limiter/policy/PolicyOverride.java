package io.github.limiter.policy;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Values that replace a policy's configured ones while the application runs: set through the
 * {@code ratelimits} actuator endpoint or a configuration refresh, kept in Redis, and applied by
 * every instance. A {@code null} value keeps the configured one. Attributes written on a
 * {@code @RateLimit} annotation are code, and stay as written.
 *
 * @param max the calls allowed per window, or {@code null}
 * @param window the window, or {@code null}
 * @param alertAt the alert threshold, or {@code null}
 * @param banFor the ban's length, or {@code null}
 * @since 0.1.0
 */
public record PolicyOverride(@Nullable Long max, @Nullable Duration window, @Nullable Long alertAt,
        @Nullable Duration banFor) {

    /** No value replaced. */
    public static final PolicyOverride NONE = new PolicyOverride(null, null, null, null);

    /**
     * Returns whether no value is replaced.
     * @return {@code true} if every value is {@code null}
     */
    public boolean isEmpty() {
        return this.max == null && this.window == null && this.alertAt == null && this.banFor == null;
    }

    /**
     * Returns this override with the values {@code newer} sets replacing its own.
     * @param newer the values to set
     * @return the merged override
     */
    public PolicyOverride with(PolicyOverride newer) {
        return new PolicyOverride((newer.max != null) ? newer.max : this.max,
                (newer.window != null) ? newer.window : this.window,
                (newer.alertAt != null) ? newer.alertAt : this.alertAt,
                (newer.banFor != null) ? newer.banFor : this.banFor);
    }

    /**
     * Returns the values, as {@code max=50, window=PT30S}; {@code none} if empty.
     * @return a description for logs and messages
     */
    public String describe() {
        StringBuilder text = new StringBuilder();
        append(text, "max", this.max);
        append(text, "window", this.window);
        append(text, "alert-at", this.alertAt);
        append(text, "ban-for", this.banFor);
        return (text.length() > 0) ? text.toString() : "none";
    }

    private static void append(StringBuilder text, String name, @Nullable Object value) {
        if (value != null) {
            text.append((text.length() > 0) ? ", " : "").append(name).append('=').append(value);
        }
    }

}
