package io.github.limiter.annotation;

import java.lang.reflect.Method;

import io.github.limiter.InvalidRateLimitException;
import org.jspecify.annotations.Nullable;

/** Makes the start-up failure of an invalid attribute, as its deprecated former type for now. */
final class InvalidLimits {

    private InvalidLimits() {
    }

    /**
     * The exception for an invalid attribute.
     * @param targetClass the class whose method has the annotation
     * @param method the method
     * @param attribute the invalid attribute
     * @param value its value, as written
     * @param problem what is wrong with it
     * @param cause what the check found, if it came from a failure
     * @return the exception, which code that catches the former name catches too
     */
    @SuppressWarnings("removal")
    static InvalidRateLimitException of(Class<?> targetClass, Method method, String attribute, String value,
            String problem, @Nullable Throwable cause) {
        return new io.github.limiter.annotation.InvalidRateLimitException(targetClass, method, attribute, value,
                problem, cause);
    }

}
