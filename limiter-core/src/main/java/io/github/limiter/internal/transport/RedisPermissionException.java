package io.github.limiter.internal.transport;

/**
 * Thrown when the limiter's Redis user may not do what rate limiting needs: run its scripts, use
 * its keys or its channel. A configuration error, not an outage: the message names the user, what
 * Redis refused, and the rules to grant. {@link FailureKind} names it
 * {@link FailureKind#NOPERM}.
 */
public final class RedisPermissionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     * @param message what was refused and what to grant
     * @param cause Redis's refusal
     */
    public RedisPermissionException(String message, Throwable cause) {
        super(message, cause);
    }

}
