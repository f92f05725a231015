package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.TimeZone;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * A calendar limit's zone chosen per call, {@code zone = "#customer.zone()"}: a SpEL expression that
 * gives a {@link ZoneId}, a {@link TimeZone} or a zone id.
 *
 * @param text the expression as written
 * @param expression the parsed expression
 * @param calls the method's arguments, as SpEL sees them
 * @param readsClientIp whether it reads {@code #clientIp}, which a reactive call knows only when
 * subscribed to
 */
record ZoneExpression(String text, Expression expression, CallVariables calls, boolean readsClientIp) {

    /**
     * Resolves the zone of one call.
     * @throws IllegalArgumentException if the expression gives no zone: {@code null}, or a text that
     * is not a zone id
     */
    ZoneId resolve(Method method, @Nullable Object[] args) {
        Object value;
        try {
            value = this.expression.getValue(this.calls.context(method, args));
        }
        catch (RuntimeException ex) {
            throw new ExpressionFailure(ex);
        }
        if (value instanceof ZoneId zone) {
            return zone;
        }
        if (value instanceof TimeZone timeZone) {
            return timeZone.toZoneId();
        }
        if (value != null) {
            try {
                return ZoneId.of(value.toString().strip());
            }
            catch (DateTimeException ex) {
                throw refused(method, "'" + value + "', which is not a zone id (" + ex.getMessage() + ")", ex);
            }
        }
        throw refused(method, "null", null);
    }

    private IllegalArgumentException refused(Method method, String gave, @Nullable Throwable cause) {
        return new IllegalArgumentException("Rate limit zone '" + this.text + "' of "
                + method.getDeclaringClass().getSimpleName() + "." + method.getName() + " gave " + gave
                + ": the call is refused, as its calendar period is unknown", cause);
    }

}
