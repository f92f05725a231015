package io.github.limiter;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of one rate-limit decision, computed by Redis in a single round trip. For a call
 * under several limits, it is the decision of the limit that binds: the rejecting limit with the
 * longest retry-after, or, for an allowed call, the limit with the fewest calls remaining.
 *
 * @param limitId the id of the limit this decision is about
 * @param key the key counted under it
 * @param outcome whether the call is allowed, rejected for going past the limit, or rejected
 * because its key is banned
 * @param limit the calls allowed per window
 * @param count the calls counted in the current window, this one included when allowed
 * @param remaining the calls still allowed in the current window, never negative; 0 while banned
 * @param retryAfter how long a rejected caller should wait before the same call would pass: the
 * time left on the ban, or until the limit has room (for the fixed window, the time left in the
 * window; for the sliding window up to two windows); {@link Duration#ZERO} when allowed
 * @param resetAfter the time left until the current window ends and its count starts again
 * @param alertRaised whether this call was the first past the limit's alert threshold in its
 * window; exactly one call per key and window, across all instances, gets {@code true}
 * @param banStarted whether this call started the key's ban; exactly one call per ban gets
 * {@code true}
 * @param shadow whether the limit is in shadow mode: the outcome is what it would have decided,
 * and the call proceeds whatever it is
 * @param local whether this instance decided the call in its own memory, not Redis: while Redis
 * could not decide, under a limit whose on-failure setting is {@link OnFailure#LOCAL}; its counts,
 * alerts and bans are this instance's alone
 * @since 0.1.0
 */
public record Decision(String limitId, String key, Outcome outcome, long limit, long count, long remaining,
        Duration retryAfter, Duration resetAfter, boolean alertRaised, boolean banStarted, boolean shadow,
        boolean local) {

    /**
     * Validates the components.
     * @param limitId the limit's id
     * @param key the key
     * @param outcome the outcome
     * @param limit the calls allowed per window
     * @param count the calls counted in the current window
     * @param remaining the calls still allowed in the current window
     * @param retryAfter the time a rejected caller should wait
     * @param resetAfter the time left in the current window
     * @param alertRaised whether this call raised the window's alert
     * @param banStarted whether this call started a ban
     * @param shadow whether the limit is in shadow mode
     * @param local whether this instance decided in its own memory
     */
    public Decision {
        Objects.requireNonNull(limitId, "limitId must not be null");
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(outcome, "outcome must not be null");
        Objects.requireNonNull(retryAfter, "retryAfter must not be null");
        Objects.requireNonNull(resetAfter, "resetAfter must not be null");
        if (remaining < 0) {
            throw new IllegalArgumentException("remaining must not be negative: " + remaining);
        }
    }

    /**
     * Returns a decision that allows a call, with no alert; for {@link RateLimiter}s of your own.
     * @param limitId the limit's id
     * @param key the key
     * @param limit the calls allowed per window
     * @param count the calls counted in the window, this one included
     * @param resetAfter the time left in the window
     * @return the decision
     */
    public static Decision allow(String limitId, String key, long limit, long count, Duration resetAfter) {
        return new Decision(limitId, key, Outcome.ALLOWED, limit, count, Math.max(0, limit - count), Duration.ZERO,
                resetAfter, false, false, false, false);
    }

    /**
     * Returns a decision that rejects a call that would go past the limit, or that another limit of
     * the same call rejected; nothing was counted.
     * @param limitId the limit's id
     * @param key the key
     * @param limit the calls allowed per window
     * @param count the calls counted in the window
     * @param retryAfter how long until the same call would pass
     * @param resetAfter the time left in the window
     * @return the decision
     * @since 0.1.0
     */
    public static Decision reject(String limitId, String key, long limit, long count, Duration retryAfter,
            Duration resetAfter) {
        return new Decision(limitId, key, Outcome.REJECTED, limit, count, Math.max(0, limit - count), retryAfter,
                resetAfter, false, false, false, false);
    }

    /**
     * Returns a decision that rejects a call because its key is banned; nothing was counted.
     * @param limitId the limit's id
     * @param key the key
     * @param limit the calls allowed per window
     * @param count the calls counted in the window
     * @param banLeft the time left on the ban
     * @param resetAfter the time left in the window
     * @return the decision
     * @since 0.1.0
     */
    public static Decision ban(String limitId, String key, long limit, long count, Duration banLeft,
            Duration resetAfter) {
        return new Decision(limitId, key, Outcome.BANNED, limit, count, 0, banLeft, resetAfter, false, false, false,
                false);
    }

    /**
     * Returns a decision that rejects a call because the limiter could not decide, as a limit whose
     * on-failure setting is {@link OnFailure#DENY} does.
     * @param limitId the limit's id
     * @param key the key
     * @param limit the calls allowed per window
     * @param retryAfter what a refused caller is told to wait
     * @return the decision
     * @since 0.1.0
     */
    public static Decision unavailable(String limitId, String key, long limit, Duration retryAfter) {
        return new Decision(limitId, key, Outcome.ERROR, limit, 0, 0, retryAfter, Duration.ZERO, false, false, false,
                false);
    }

    /**
     * Returns the decision that binds a call under several limits, as the limiter picks it: enforced
     * limits over shadow ones; then a rejection over an allowance; then the longest wait, or the
     * fewest calls remaining. For {@link RateLimiter}s of your own.
     * @param decisions each limit's decision of the call; not empty
     * @return the binding decision
     * @since 0.1.0
     */
    public static Decision binding(List<Decision> decisions) {
        Decision binding = decisions.get(0);
        for (int i = 1; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            binding = binding.boundBy(decision) ? decision : binding;
        }
        return binding;
    }

    private boolean boundBy(Decision candidate) {
        if (candidate.shadow != this.shadow) {
            return !candidate.shadow;
        }
        boolean candidateAllowed = candidate.outcome == Outcome.ALLOWED;
        if (candidateAllowed != (this.outcome == Outcome.ALLOWED)) {
            return !candidateAllowed;
        }
        return candidateAllowed ? candidate.remaining < this.remaining
                : candidate.retryAfter.compareTo(this.retryAfter) > 0;
    }

    /**
     * Returns this decision as the first call past the alert threshold in its window.
     * @return a copy with {@link #alertRaised()} set
     * @since 0.1.0
     */
    public Decision withAlertRaised() {
        return new Decision(this.limitId, this.key, this.outcome, this.limit, this.count, this.remaining,
                this.retryAfter, this.resetAfter, true, this.banStarted, this.shadow, this.local);
    }

    /**
     * Returns this decision as the one that started the key's ban.
     * @return a copy with {@link #banStarted()} set
     * @since 0.1.0
     */
    public Decision withBanStarted() {
        return new Decision(this.limitId, this.key, this.outcome, this.limit, this.count, this.remaining,
                this.retryAfter, this.resetAfter, this.alertRaised, true, this.shadow, this.local);
    }

    /**
     * Returns this decision as made by a limit in shadow mode.
     * @return a copy with {@link #shadow()} set
     * @since 0.1.0
     */
    public Decision inShadow() {
        return new Decision(this.limitId, this.key, this.outcome, this.limit, this.count, this.remaining,
                this.retryAfter, this.resetAfter, this.alertRaised, this.banStarted, true, this.local);
    }

    /**
     * Returns this decision as made by this instance in its own memory, while Redis could not
     * decide ({@link OnFailure#LOCAL}).
     * @return a copy with {@link #local()} set
     * @since 0.1.0
     */
    public Decision locally() {
        return new Decision(this.limitId, this.key, this.outcome, this.limit, this.count, this.remaining,
                this.retryAfter, this.resetAfter, this.alertRaised, this.banStarted, this.shadow, true);
    }

    /**
     * Returns this refusal as seen later, with the times left then and without the alert or ban it
     * started: what a refusal remembered by an instance answers.
     * @param retryAfterNow the time left until the call would pass
     * @param resetAfterNow the time left in the window
     * @return a copy with those times and no events
     * @since 0.1.0
     */
    public Decision seenAgain(Duration retryAfterNow, Duration resetAfterNow) {
        return new Decision(this.limitId, this.key, this.outcome, this.limit, this.count, this.remaining,
                retryAfterNow, resetAfterNow, false, false, this.shadow, this.local);
    }

    /**
     * Returns whether the call may proceed.
     * @return {@code true} for {@link Outcome#ALLOWED}, and for any outcome of a limit in shadow
     * mode
     */
    public boolean allowed() {
        return this.outcome == Outcome.ALLOWED || this.shadow;
    }

    /**
     * Returns whether the call was rejected because its key is banned.
     * @return {@code true} for {@link Outcome#BANNED}
     */
    public boolean banned() {
        return this.outcome == Outcome.BANNED;
    }

    /**
     * What a decision says about a call.
     *
     * @since 0.1.0
     */
    public enum Outcome {

        /** The call may proceed; it was counted. */
        ALLOWED,

        /**
         * The call was rejected and not counted: it would go past this limit, or, under several
         * limits, past another one.
         */
        REJECTED,

        /** The key is banned; the call was rejected and not counted. */
        BANNED,

        /**
         * Redis could not decide (unreachable, or slower than the limiter's timeout); the call was
         * rejected by the limit's on-failure setting. Allowed calls after a failure are
         * {@link #ALLOWED}, with nothing counted.
         */
        ERROR

    }

}
