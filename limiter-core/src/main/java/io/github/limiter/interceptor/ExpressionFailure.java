package io.github.limiter.interceptor;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * An expression of a limit that failed for a call, where it is evaluated, before the limit that
 * owns it names it ({@link RateLimitInterceptor}): SpEL's failure (no such method or property, a
 * wrong type) or what the code it called threw.
 */
final class ExpressionFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private ExpressionFailure(Throwable cause) {
        super(cause.getMessage(), cause, false, false);
    }

    /**
     * Evaluates an expression: what it gives, or an {@code ExpressionFailure} for what it threw.
     * @param evaluation the evaluation
     * @return the expression's value
     */
    static @Nullable Object evaluate(Supplier<@Nullable Object> evaluation) {
        try {
            return evaluation.get();
        }
        catch (RuntimeException ex) {
            throw new ExpressionFailure(ex);
        }
    }

}
