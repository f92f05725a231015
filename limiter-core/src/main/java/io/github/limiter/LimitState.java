package io.github.limiter;

import java.time.Duration;
import java.util.Objects;

/**
 * A key's state under a limit, as read from Redis, for admin tools.
 *
 * @param count the calls counted in the current window; 0 when no window is open
 * @param resetAfter the time left in the current window; {@link Duration#ZERO} when none is open
 * @param banTimeLeft the time left on the key's ban; {@link Duration#ZERO} when it is not banned
 * @since 0.1.0
 */
public record LimitState(long count, Duration resetAfter, Duration banTimeLeft) {

    /**
     * Validates the components.
     * @param count the calls counted in the current window
     * @param resetAfter the time left in the current window
     * @param banTimeLeft the time left on the ban
     */
    public LimitState {
        Objects.requireNonNull(resetAfter, "resetAfter must not be null");
        Objects.requireNonNull(banTimeLeft, "banTimeLeft must not be null");
    }

    /**
     * Returns whether the key is banned.
     * @return {@code true} while a ban has time left
     */
    public boolean banned() {
        return !this.banTimeLeft.isZero() && !this.banTimeLeft.isNegative();
    }

}
