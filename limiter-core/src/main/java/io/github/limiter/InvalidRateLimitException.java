package io.github.limiter;

import org.jspecify.annotations.Nullable;

/**
 * Thrown while the application starts when a {@code @RateLimit} attribute is invalid: the start
 * fails, and the message names the class, the method, the attribute and its value (Spring Boot's
 * failure analysis prints it, with what to change).
 *
 * @since 0.1.0
 */
public class InvalidRateLimitException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The name of the invalid attribute, such as {@code "window"}. */
    private final String attribute;

    /** The invalid value, as written in the annotation. */
    private final String value;

    /**
     * Creates the exception; the annotation's checks do, for the method they check.
     * @param message names the class, the method, the attribute, its value and what is wrong with it
     * @param attribute the invalid attribute
     * @param value the invalid value, as written
     * @param cause what the check found, if it came from a failure
     */
    public InvalidRateLimitException(String message, String attribute, String value, @Nullable Throwable cause) {
        super(message, cause);
        this.attribute = attribute;
        this.value = value;
    }

    /**
     * Returns the name of the invalid attribute.
     * @return the attribute, such as {@code "window"}
     */
    public String getAttribute() {
        return this.attribute;
    }

    /**
     * Returns the invalid value as written.
     * @return the value
     */
    public String getValue() {
        return this.value;
    }

}
