package io.github.limiter.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * Whether a limit applies to a call, {@code condition = "#user.plan != 'internal'"}: a SpEL
 * expression evaluated before anything else of the limit, as {@code @Cacheable(condition = ...)}
 * is. Only {@code true} applies the limit; {@code false} or {@code null} leaves the call to the
 * method's other limits, not counted under this one.
 *
 * @param text the expression as written
 * @param expression the parsed expression
 * @param calls the method's arguments, as SpEL sees them
 * @param readsClientIp whether it reads {@code #clientIp}, which a reactive call knows only when
 * subscribed to
 */
record ConditionExpression(String text, Expression expression, CallVariables calls, boolean readsClientIp) {

    /**
     * Says whether the limit applies to one call.
     * @throws ExpressionFailure if the expression fails, or gives something other than a boolean
     */
    boolean applies(Method method, @Nullable Object[] args) {
        try {
            return Boolean.TRUE.equals(this.expression.getValue(this.calls.context(method, args), Boolean.class));
        }
        catch (RuntimeException ex) {
            throw new ExpressionFailure(ex);
        }
    }

}
