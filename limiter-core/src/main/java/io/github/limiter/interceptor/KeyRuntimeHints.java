package io.github.limiter.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What SpEL reads by reflection from the variables the limiter itself provides: {@code #method} is
 * a {@link Method}, so {@code #method.name} calls its public getters. {@code #args} and the root
 * object are arrays, which SpEL indexes without reflection. The arguments' own types are the
 * application's; the limiter registers what it can know of them per limited bean
 * ({@code RateLimitBeanRegistrationAotProcessor}). Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class KeyRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.reflection().registerType(Method.class, MemberCategory.INVOKE_PUBLIC_METHODS);
    }

}
