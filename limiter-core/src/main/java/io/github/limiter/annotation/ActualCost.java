package io.github.limiter.annotation;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;

/**
 * What a call really cost, known once it ran: {@link RateLimit#actualCost()}, a SpEL expression
 * evaluated after the method returned or threw, with the key's variables and {@code #result} and
 * {@code #exception}, which win over parameters of those names.
 *
 * @param text the expression as written
 * @param expression the parsed expression
 * @param calls the method's arguments, as SpEL sees them
 */
record ActualCost(String text, Expression expression, Calls calls) {

    /** The call's result: the method's return value, or what its future or {@code Mono} completed with. */
    static final String RESULT = "result";

    /** What the call threw or failed with, or {@code null}. */
    static final String EXCEPTION = "exception";

    /**
     * Evaluates the call's actual cost.
     * @param method the method called, as declared by the target class
     * @param args the call's arguments
     * @param result the call's result, or {@code null}
     * @param exception what the call threw, or {@code null}
     * @return the cost, 0 or more
     * @throws IllegalArgumentException if the expression does not give a whole number of 0 or more
     */
    long resolve(Method method, @Nullable Object[] args, @Nullable Object result, @Nullable Throwable exception) {
        EvaluationContext context = this.calls.context(method, args);
        context.setVariable(RESULT, result);
        context.setVariable(EXCEPTION, exception);
        Object value = this.expression.getValue(context);
        if (value instanceof Number number && number.doubleValue() == number.longValue() && number.longValue() >= 0) {
            return number.longValue();
        }
        throw new IllegalArgumentException("Rate limit actualCost '" + this.text + "' of "
                + method.getDeclaringClass().getSimpleName() + "." + method.getName() + " gave " + value
                + ", not a whole number of 0 or more");
    }

}
