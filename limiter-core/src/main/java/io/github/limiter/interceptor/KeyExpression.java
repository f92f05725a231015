package io.github.limiter.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;
import org.springframework.util.ObjectUtils;

/**
 * A parsed key expression that resolves the key of one call.
 */
sealed interface KeyExpression {

    /** The key of a limit shared by every caller: always the empty string. */
    KeyExpression SHARED = new Shared();

    /**
     * Resolves the key of one call.
     * @param method the method called, as declared by the target class
     * @param args the call's arguments
     * @return the key, the empty string for a shared limit, or {@code null} if the expression
     * evaluates to {@code null} or a blank string
     * @throws ExpressionFailure if the expression fails
     */
    @Nullable String resolve(Method method, @Nullable Object[] args);

    /**
     * Returns the expression as written.
     * @return the SpEL text, empty for a shared limit
     */
    String text();

    /**
     * Says whether the key is the client's address, or made from it ({@code #clientIp}).
     * @return {@code true} if the expression reads {@code #clientIp}
     */
    default boolean readsClientIp() {
        return false;
    }

    /** A limit shared by every caller. */
    record Shared() implements KeyExpression {

        @Override
        public String resolve(Method method, @Nullable Object[] args) {
            return "";
        }

        @Override
        public String text() {
            return "";
        }

    }

    /**
     * A key that is one argument, written {@code #name}, {@code #p0} or {@code #a0}: read from the
     * arguments without evaluating SpEL, with the same result.
     *
     * @param text the expression as written
     * @param index the argument's index
     */
    record Argument(String text, int index) implements KeyExpression {

        @Override
        public @Nullable String resolve(Method method, @Nullable Object[] args) {
            return key(CallVariables.argument(args, this.index));
        }

    }

    /**
     * A SpEL key: arguments by name and position, {@code #args}, {@code #method} and
     * {@code @beanName}.
     *
     * @param text the expression as written
     * @param expression the parsed expression
     * @param calls the method's arguments, as SpEL sees them
     * @param readsClientIp whether it reads {@code #clientIp}
     */
    record Spel(String text, Expression expression, CallVariables calls, boolean readsClientIp) implements KeyExpression {

        @Override
        public @Nullable String resolve(Method method, @Nullable Object[] args) {
            try {
                return key(this.expression.getValue(this.calls.context(method, args)));
            }
            catch (RuntimeException ex) {
                throw new ExpressionFailure(ex);
            }
        }

    }

    private static @Nullable String key(@Nullable Object value) {
        String key = (value != null) ? ObjectUtils.nullSafeToString(value) : null;
        return (key == null || key.isBlank()) ? null : key;
    }

}
