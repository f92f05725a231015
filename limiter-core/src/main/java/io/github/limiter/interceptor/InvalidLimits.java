package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

import io.github.limiter.InvalidRateLimitException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/** Makes the start-up failure of an invalid attribute, naming class, method, attribute and value. */
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
     * @return the exception
     */
    static InvalidRateLimitException of(Class<?> targetClass, Method method, String attribute, String value,
            String problem, @Nullable Throwable cause) {
        return new InvalidRateLimitException("Invalid @RateLimit on " + describe(targetClass, method) + ": "
                + attribute + " = '" + value + "' " + problem, attribute, value, cause);
    }

    /**
     * The exception for an invalid property of a request rule.
     * @param rule the rule's properties, {@code limiter.web.rules.<name>}
     * @param attribute the attribute the property stands for, such as {@code alertAt}
     * @param value its value, as written
     * @param problem what is wrong with it
     * @param cause what the check found, if it came from a failure
     * @return the exception
     */
    static InvalidRateLimitException ofRule(String rule, String attribute, String value, String problem,
            @Nullable Throwable cause) {
        return new InvalidRateLimitException("Invalid rate-limit rule: " + rule + "." + property(attribute) + " = '"
                + value + "' " + problem, attribute, value, cause);
    }

    /** An attribute's name as a property writes it: {@code alertAt} as {@code alert-at}. */
    static String property(String attribute) {
        StringBuilder property = new StringBuilder(attribute.length() + 2);
        for (char c : attribute.toCharArray()) {
            if (Character.isUpperCase(c)) {
                property.append('-').append(Character.toLowerCase(c));
            }
            else {
                property.append(c);
            }
        }
        return property.toString();
    }

    private static String describe(Class<?> targetClass, Method method) {
        StringBuilder text = new StringBuilder(ClassUtils.getUserClass(targetClass).getName()).append('.')
            .append(method.getName())
            .append('(');
        return text.append(simpleNames(SuspendFunctions.parameterTypes(method))).append(')').toString();
    }

    /** The simple names of parameter types, as messages and descriptions list them. */
    static String simpleNames(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", "));
    }

}
