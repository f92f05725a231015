package io.github.limiter.annotation;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Published as an application event on every instance when it applies a change of a policy's
 * override: set, changed or removed, whether the change was made on this instance or read from
 * Redis after another one made it.
 *
 * @param policy the policy's name
 * @param before the override in force before, or {@code null} if there was none
 * @param after the override in force now, or {@code null} if the policy is back to its configuration
 * @param limits the policy's limits resolved so far, as they apply now
 * @param madeHere whether this instance made the change (else it read it from Redis)
 * @since 0.1.0
 */
public record RateLimitPolicyChangedEvent(String policy, @Nullable PolicyOverride before,
        @Nullable PolicyOverride after, List<LimitDescription> limits, boolean madeHere) {

    /**
     * Copies the limits.
     * @param policy the policy's name
     * @param before the override before, or {@code null}
     * @param after the override now, or {@code null}
     * @param limits the policy's limits as they apply now
     * @param madeHere whether this instance made the change
     */
    public RateLimitPolicyChangedEvent {
        limits = List.copyOf(limits);
    }

}
