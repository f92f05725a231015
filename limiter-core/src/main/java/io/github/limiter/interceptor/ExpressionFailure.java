package io.github.limiter.interceptor;

/**
 * An expression of a limit that failed for a call, where it is evaluated, before the limit that
 * owns it names it ({@link RateLimitInterceptor}): SpEL's failure (no such method or property, a
 * wrong type) or what the code it called threw.
 */
final class ExpressionFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Wraps what an expression's evaluation threw.
     * @param cause SpEL's failure, or what the code the expression called threw
     */
    ExpressionFailure(RuntimeException cause) {
        super(cause.getMessage(), cause, false, false);
    }

    @Override
    public synchronized RuntimeException getCause() {
        return (RuntimeException) super.getCause();
    }

}
