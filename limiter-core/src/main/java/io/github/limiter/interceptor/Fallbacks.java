package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.RateLimitExceededException;

import io.github.limiter.annotation.RateLimit;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the fallback a method's limits name, once: a method of the same class with the same
 * parameters, optionally followed by the {@link RateLimitExceededException}, returning what the
 * limited method returns. A Kotlin {@code suspend} function's fallback is a suspend function too.
 */
final class Fallbacks {

    private Fallbacks() {
    }

    /**
     * The method's limits with their fallback, if the annotations name one.
     * @throws InvalidRateLimitException if they name several, or one that does not exist
     */
    static MethodLimits limits(List<LimitSpec> specs, ReturnType returns, Set<RateLimit> annotations, Method method,
            Class<?> targetClass) {
        Set<String> names = new TreeSet<>();
        annotations.stream().map(RateLimit::fallback).filter(name -> !name.isBlank()).forEach(names::add);
        if (names.isEmpty()) {
            return new MethodLimits(specs, null, false, returns);
        }
        if (names.size() > 1) {
            throw InvalidLimits.of(targetClass, method, "fallback", String.join(", ", names),
                    "names more than one fallback for one method", null);
        }
        String name = names.iterator().next();
        boolean suspending = SuspendFunctions.isSuspending(method);
        Class<?>[] types = SuspendFunctions.parameterTypes(method);
        Class<?>[] withException = Arrays.copyOf(types, types.length + 1);
        withException[types.length] = RateLimitExceededException.class;
        for (Class<?>[] candidate : List.of(withException, types)) {
            // a suspend function's fallback is one too: its continuation comes last
            Class<?>[] parameters = suspending ? withContinuation(candidate, method) : candidate;
            Method fallback = ReflectionUtils.findMethod(targetClass, name, parameters);
            if (fallback != null && returnsCompatibly(fallback, method)) {
                return new MethodLimits(specs, fallback, candidate == withException, returns);
            }
        }
        String simple = InvalidLimits.simpleNames(types);
        String kind = suspending ? "suspend function " : "method ";
        String returned = suspending ? "what " + method.getName() + " returns" : method.getReturnType().getSimpleName();
        throw InvalidLimits.of(targetClass, method, "fallback", name,
                "names no " + kind + name + "(" + simple + ") or " + name + "(" + simple
                        + (types.length > 0 ? ", " : "") + "RateLimitExceededException) returning " + returned
                        + " in " + targetClass.getSimpleName(),
                null);
    }

    private static Class<?>[] withContinuation(Class<?>[] types, Method method) {
        Class<?>[] parameters = Arrays.copyOf(types, types.length + 1);
        parameters[types.length] = method.getParameterTypes()[method.getParameterCount() - 1];
        return parameters;
    }

    private static boolean returnsCompatibly(Method fallback, Method method) {
        Class<?> expected = method.getReturnType();
        Class<?> actual = fallback.getReturnType();
        if (SuspendFunctions.isSuspending(method) && KotlinDetector.isKotlinReflectPresent()) {
            // both return Object to the JVM: compare what they return to Kotlin
            expected = new MethodParameter(method, -1).getParameterType();
            actual = new MethodParameter(fallback, -1).getParameterType();
        }
        return (expected == void.class) ? actual == void.class
                : ClassUtils.isAssignable(ClassUtils.resolvePrimitiveIfNecessary(expected), actual);
    }

}
