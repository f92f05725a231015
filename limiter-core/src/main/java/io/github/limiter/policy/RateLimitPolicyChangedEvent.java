package io.github.limiter.policy;

import io.github.limiter.LimitDescription;
import java.util.List;
import java.util.Objects;

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
 * @param origin where the change came from
 * @param requester who asked for the change, as the instance that made it knows them (an
 * authenticated user's name, or {@code anonymous}); {@code null} on the other instances, and where
 * no one asked (a configuration refresh)
 * @since 0.1.0
 */
public record RateLimitPolicyChangedEvent(String policy, @Nullable PolicyOverride before,
        @Nullable PolicyOverride after, List<LimitDescription> limits, Origin origin, @Nullable String requester) {

    /**
     * Copies the limits.
     * @param policy the policy's name
     * @param before the override before, or {@code null}
     * @param after the override now, or {@code null}
     * @param limits the policy's limits as they apply now
     * @param origin where the change came from
     * @param requester who asked for the change, or {@code null}
     */
    public RateLimitPolicyChangedEvent {
        limits = List.copyOf(limits);
        Objects.requireNonNull(origin, "origin must not be null");
    }

    /**
     * Returns whether this instance made the change (else it read it from Redis).
     * @return whether the origin is {@link Origin#THIS_INSTANCE}
     */
    public boolean madeHere() {
        return this.origin == Origin.THIS_INSTANCE;
    }

    /**
     * Where a change of policy overrides came from, as the instance that applies it knows.
     *
     * @since 0.1.0
     */
    public enum Origin {

        /** This instance made the change. */
        THIS_INSTANCE,

        /** Another instance made the change; this one read it from Redis. */
        ANOTHER_INSTANCE,

        /**
         * Redis lost the override (a restart without persistence, a flush, an eviction): the policy
         * is back to its configured values though no instance removed it.
         */
        LOST

    }

}
