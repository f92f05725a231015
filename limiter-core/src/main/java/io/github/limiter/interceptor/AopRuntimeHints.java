package io.github.limiter.interceptor;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The classes whose presence decides how a limited method's calls are decided ({@link ReturnType},
 * {@link RateLimitInterceptor}): looked up by name, which a native image answers only for types
 * registered for reflection. The limited methods and their fallbacks are the application's, and
 * registered per bean ({@link RateLimitBeanRegistrationAotProcessor}). Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class AopRuntimeHints implements RuntimeHintsRegistrar {

    private static final List<String> PROBED = List.of("reactor.core.publisher.Mono",
            "reactor.core.scheduler.Schedulers", "org.reactivestreams.Publisher");

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        for (String type : PROBED) {
            hints.reflection().registerTypeIfPresent(classLoader, type);
        }
    }

}
