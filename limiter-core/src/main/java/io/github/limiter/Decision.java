package io.github.limiter;

import java.time.Duration;
import java.util.Objects;

/**
 * The outcome of one rate-limit decision, computed by Redis in a single round trip.
 *
 * @param allowed whether the call may proceed
 * @param limit the calls allowed per window
 * @param count the calls counted in the current window, this one included when allowed
 * @param remaining the calls still allowed in the current window, never negative
 * @param retryAfter how long a rejected caller should wait before trying again;
 * {@link Duration#ZERO} when allowed
 * @param resetAfter the time left until the current window ends and its count starts again
 * @since 0.1.0
 */
public record Decision(boolean allowed, long limit, long count, long remaining, Duration retryAfter,
        Duration resetAfter) {

    /**
     * Validates the components.
     * @param allowed whether the call may proceed
     * @param limit the calls allowed per window
     * @param count the calls counted in the current window
     * @param remaining the calls still allowed in the current window
     * @param retryAfter the time a rejected caller should wait
     * @param resetAfter the time left in the current window
     */
    public Decision {
        Objects.requireNonNull(retryAfter, "retryAfter must not be null");
        Objects.requireNonNull(resetAfter, "resetAfter must not be null");
        if (remaining < 0) {
            throw new IllegalArgumentException("remaining must not be negative: " + remaining);
        }
    }

}
