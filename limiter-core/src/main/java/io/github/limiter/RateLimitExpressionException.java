package io.github.limiter;

import java.util.Objects;

/**
 * Thrown instead of calling a limited method when an expression of one of its limits fails for
 * the call: its key, its cost, its zone or its policy choice, such as {@code #userId.toUppercase()}
 * (no such method) or {@code #form.usr} on a form without that property. The message names the
 * limit, the method, the attribute, the expression and the cause; the cause is SpEL's, or what the
 * code the expression called threw.
 *
 * <p>It is the application's mistake, not the caller's: in Spring MVC and Spring WebFlux
 * applications the starter answers it with HTTP 500 and an RFC 9457 problem detail naming the
 * limit (not the expression), and the limiter logs it once per limit and kind of failure. Where
 * the types are known at start (a parameter's declared type, and the members a chain reads from
 * it), the start fails instead, with {@link InvalidRateLimitException}.
 *
 * @since 0.1.0
 */
public class RateLimitExpressionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The id of the limit whose expression failed. */
    private final String limitId;

    /** The attribute the expression is the value of: key, cost, zone or policy. */
    private final String attribute;

    /** The expression that failed, as written. */
    private final String expression;

    /**
     * Creates an exception for a limit whose expression failed.
     * @param limitId the id of the limit
     * @param attribute the attribute the expression is the value of: {@code key}, {@code cost},
     * {@code zone} or {@code policy}
     * @param expression the expression, as written in the annotation or policy
     * @param method the limited method, for the message
     * @param cause why it failed
     */
    public RateLimitExpressionException(String limitId, String attribute, String expression, String method,
            Throwable cause) {
        super("Rate limit '" + limitId + "' of " + method + " could not evaluate its " + attribute + " '" + expression
                + "' for this call: " + cause.getMessage(), cause);
        this.limitId = Objects.requireNonNull(limitId, "limitId must not be null");
        this.attribute = Objects.requireNonNull(attribute, "attribute must not be null");
        this.expression = Objects.requireNonNull(expression, "expression must not be null");
    }

    /**
     * Returns the id of the limit whose expression failed.
     * @return the limit id
     */
    public String getLimitId() {
        return this.limitId;
    }

    /**
     * Returns the attribute the expression is the value of.
     * @return {@code key}, {@code cost}, {@code zone} or {@code policy}
     */
    public String getAttribute() {
        return this.attribute;
    }

    /**
     * Returns the expression that failed, as written. It is the developer's code, not the
     * caller's: the starter's HTTP answer leaves it out.
     * @return the expression
     */
    public String getExpression() {
        return this.expression;
    }

}
