package io.github.limiter.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * The permits one call takes: a literal, or a SpEL expression evaluated per call.
 */
sealed interface CostExpression {

    /** One permit per call. */
    CostExpression ONE = new Literal(1);

    /**
     * Resolves the cost of one call.
     * @param method the method called, as declared by the target class
     * @param args the call's arguments
     * @return the cost
     * @throws IllegalArgumentException if the expression does not give a whole number
     */
    long resolve(Method method, @Nullable Object[] args);

    /**
     * A fixed cost.
     *
     * @param cost the permits every call takes
     */
    record Literal(long cost) implements CostExpression {

        @Override
        public long resolve(Method method, @Nullable Object[] args) {
            return this.cost;
        }

    }

    /**
     * A cost computed from the call.
     *
     * @param text the expression as written
     * @param expression the parsed expression
     * @param calls the method's arguments, as SpEL sees them
     */
    record Spel(String text, Expression expression, CallVariables calls) implements CostExpression {

        @Override
        public long resolve(Method method, @Nullable Object[] args) {
            Object value;
            try {
                value = this.expression.getValue(this.calls.context(method, args));
            }
            catch (RuntimeException ex) {
                throw new ExpressionFailure(ex);
            }
            if (value instanceof Number number && number.doubleValue() == number.longValue()) {
                return number.longValue();
            }
            throw new IllegalArgumentException("Rate limit cost '" + this.text + "' of "
                    + method.getDeclaringClass().getSimpleName() + "." + method.getName() + " gave " + value
                    + ", not a whole number");
        }

    }

}
