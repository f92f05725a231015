package io.github.limiter.annotation;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Thrown while the application starts when a
 * {@link io.github.limiter.annotation.RateLimit @RateLimit} attribute is invalid. The message names
 * the class, the method, the attribute and its value.
 *
 * @since 0.1.0
 */
public class InvalidRateLimitException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The name of the invalid attribute, such as {@code "window"}. */
    private final String attribute;

    /** The invalid value, as written in the annotation. */
    private final String value;

    InvalidRateLimitException(Class<?> targetClass, Method method, String attribute, String value, String problem,
            @Nullable Throwable cause) {
        super("Invalid @RateLimit on " + describe(targetClass, method) + ": " + attribute + " = '" + value + "' "
                + problem, cause);
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
