package io.github.limiter;

import java.util.Objects;

/**
 * Thrown instead of calling a limited method when a limit's key expression evaluates to
 * {@code null} or a blank string, such as {@code key = "#userId"} called with an empty user id,
 * and {@code limiter.blank-key} is {@code reject} (the default): a call without a key cannot be
 * counted, and is not merged into one counter shared by every caller.
 *
 * <p>Keys usually come from request data, so this is the caller's mistake, not the server's: in
 * Spring MVC and Spring WebFlux applications the starter answers it with HTTP 400 and an RFC 9457
 * problem detail naming the limit, unless the application handles it itself. Elsewhere it reaches
 * the caller as thrown (or as the error of the returned {@code CompletionStage} or publisher).
 *
 * <p>An {@link IllegalStateException}, as the limiter threw for a blank key before this type.
 *
 * @since 0.1.0
 */
public class BlankRateLimitKeyException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The id of the limit whose key is blank. */
    private final String limitId;

    /** The key expression that evaluated to nothing. */
    private final String keyExpression;

    /**
     * Creates an exception for a limit whose key evaluated to nothing.
     * @param limitId the id of the limit whose key is blank
     * @param keyExpression the key expression, as written in the annotation or policy
     * @param method the limited method, for the message
     */
    public BlankRateLimitKeyException(String limitId, String keyExpression, String method) {
        super("Rate limit key '" + keyExpression + "' of " + method + " evaluated to null or a blank string; the "
                + "call is rejected because it cannot be counted (limiter.blank-key=skip skips the limit instead)");
        this.limitId = Objects.requireNonNull(limitId, "limitId must not be null");
        this.keyExpression = Objects.requireNonNull(keyExpression, "keyExpression must not be null");
    }

    /**
     * Returns the id of the limit whose key evaluated to nothing.
     * @return the limit id
     */
    public String getLimitId() {
        return this.limitId;
    }

    /**
     * Returns the key expression that evaluated to nothing, such as {@code #userId}. It is the
     * developer's code, not the caller's: the starter's HTTP answer leaves it out.
     * @return the expression
     */
    public String getKeyExpression() {
        return this.keyExpression;
    }

}
