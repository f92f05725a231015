package io.github.limiter.annotation;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * The start-up failure of an invalid {@link RateLimit @RateLimit}, by its former name: what the
 * checks throw, so that code that catches this name still catches it.
 *
 * @since 0.1.0
 * @deprecated since 0.1.0, for removal: catch {@link io.github.limiter.InvalidRateLimitException},
 * which this extends
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class InvalidRateLimitException extends io.github.limiter.InvalidRateLimitException {

    private static final long serialVersionUID = 1L;

    InvalidRateLimitException(Class<?> targetClass, Method method, String attribute, String value, String problem,
            @Nullable Throwable cause) {
        super("Invalid @RateLimit on " + describe(targetClass, method) + ": " + attribute + " = '" + value + "' "
                + problem, attribute, value, cause);
    }

    private static String describe(Class<?> targetClass, Method method) {
        StringBuilder text = new StringBuilder(ClassUtils.getUserClass(targetClass).getName()).append('.')
            .append(method.getName())
            .append('(');
        Class<?>[] types = SuspendFunctions.parameterTypes(method);
        for (int i = 0; i < types.length; i++) {
            text.append((i > 0) ? ", " : "").append(types[i].getSimpleName());
        }
        return text.append(')').toString();
    }

}
