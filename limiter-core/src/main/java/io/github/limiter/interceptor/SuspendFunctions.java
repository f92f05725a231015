package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;

import org.springframework.core.KotlinDetector;

/**
 * The parameters of a method as its developer wrote them. A Kotlin {@code suspend} function is
 * compiled with one more, a trailing {@code kotlin.coroutines.Continuation} that the caller never
 * sees: it has no Kotlin name, takes no part in keys and is not named in messages. Needs no Kotlin
 * on the classpath: Spring's {@link KotlinDetector} tells a suspend function by its class's Kotlin
 * metadata and the last parameter's type name.
 */
final class SuspendFunctions {

    private SuspendFunctions() {
    }

    /**
     * Says whether a method is a Kotlin {@code suspend} function.
     * @param method the method
     * @return {@code true} for a suspend function
     */
    public static boolean isSuspending(Method method) {
        return KotlinDetector.isSuspendingFunction(method);
    }

    /**
     * Returns the number of parameters the developer wrote: one less than the JVM's for a suspend
     * function.
     * @param method the method
     * @return the number of declared parameters
     */
    public static int parameterCount(Method method) {
        return method.getParameterCount() - (isSuspending(method) ? 1 : 0);
    }

    /**
     * Returns the types of the parameters the developer wrote, without a suspend function's
     * continuation.
     * @param method the method
     * @return the types
     */
    public static Class<?>[] parameterTypes(Method method) {
        Class<?>[] types = method.getParameterTypes();
        return isSuspending(method) ? Arrays.copyOf(types, types.length - 1) : types;
    }

}
