package io.github.limiter;

import java.time.Duration;

/**
 * Thrown when a call exceeds its rate limit. In a servlet web application the starter answers it
 * with HTTP 429, a {@code Retry-After} header and an RFC 9457 problem detail, unless the
 * application handles it itself.
 *
 * @since 0.1.0
 */
public class RateLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The id of the limit that rejected the call. */
    private final String limitId;

    /** The resolved key the limit counted. */
    private final String key;

    private final transient Decision decision;

    /**
     * Creates an exception for a rejected decision.
     * @param decision the rejecting decision, which names the limit and the key
     */
    public RateLimitExceededException(Decision decision) {
        // No stack trace: a rejection is an expected outcome, thrown in bulk under attack, where
        // filling in stack traces would cost more CPU than the decision itself.
        // The message is written only when asked for: most refusals are answered without it.
        super(null, null, false, false);
        this.limitId = decision.limitId();
        this.key = decision.key();
        this.decision = decision;
    }

    /**
     * Returns what was refused: the limit, the key (escaped and bounded, as {@link PrintableKeys}
     * writes it, since the key may come from a client) and when to retry.
     * @return the message
     */
    @Override
    public String getMessage() {
        // the decision is not serialized: a deserialized exception names the limit alone
        return (this.decision != null) ? message(this.decision) : "Rate limit '" + this.limitId + "' refused a call";
    }

    private static String message(Decision decision) {
        String limit = "Rate limit '" + decision.limitId() + "'";
        return switch (decision.outcome()) {
            case BANNED -> limit + ": key '" + PrintableKeys.of(decision.key()) + "' is banned; retry after "
                    + decision.retryAfter().toMillis() + " ms";
            case ERROR -> limit + " could not decide (Redis unavailable) and denies calls on failure";
            default -> limit + " exceeded for key '" + PrintableKeys.of(decision.key()) + "': " + decision.limit()
                    + " calls per window; retry after " + decision.retryAfter().toMillis() + " ms";
        };
    }

    /**
     * Returns whether the call was refused because Redis could not decide and the limit denies calls
     * on failure.
     * @return {@code true} for a failure
     */
    public boolean isFailure() {
        return this.decision.outcome() == Decision.Outcome.ERROR;
    }

    /**
     * Returns the id of the limit that rejected the call.
     * @return the limit id, such as {@code "AnswerController.answer"}
     */
    public String getLimitId() {
        return this.limitId;
    }

    /**
     * Returns the resolved key the limit counted.
     * @return the key, such as a user id; the empty string for a counter shared by every caller
     */
    public String getKey() {
        return this.key;
    }

    /**
     * Returns the calls allowed per window.
     * @return the limit
     */
    public long getLimit() {
        return this.decision.limit();
    }

    /**
     * Returns how long the caller should wait before trying again.
     * @return the time left in the window, or on the ban
     */
    public Duration getRetryAfter() {
        return this.decision.retryAfter();
    }

    /**
     * Returns whether the call was rejected because its key is banned, rather than for going past
     * the limit in its current window.
     * @return {@code true} for a ban
     */
    public boolean isBanned() {
        return this.decision.banned();
    }

    /**
     * Returns the decision that rejected the call.
     * @return the decision
     */
    public Decision getDecision() {
        return this.decision;
    }

}
