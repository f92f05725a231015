package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.github.limiter.InvalidRateLimitException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * How a limited method hands back its result, which says when its calls are decided: a plain value
 * when it is called, a {@link CompletionStage} when it is called but without blocking, and a
 * reactive type (any that Spring's {@link ReactiveAdapterRegistry} knows) once per subscription.
 *
 * <p>A Kotlin {@code suspend} function is a reactive one to a proxy: Spring's proxies run the rest
 * of the chain as a {@code Mono} (a {@code Flux} for one that returns a {@code Flow}) and await what
 * the interceptor returns on the caller's continuation. So it is decided like a {@code Mono}: without
 * blocking, once per call.
 *
 * @param kind the kind of result
 * @param adapter for a reactive type, its adapter
 * @param suspending whether the method is a Kotlin {@code suspend} function
 */
record ReturnType(Kind kind, @Nullable ReactiveAdapter adapter, boolean suspending) {

    private static final ClassLoader CLASS_LOADER = ReturnType.class.getClassLoader();

    private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono", CLASS_LOADER);

    private static final boolean REACTIVE_STREAMS_PRESENT = ClassUtils.isPresent("org.reactivestreams.Publisher",
            CLASS_LOADER);

    // what Spring's proxies need to call a suspend function as a Mono (AopUtils, CglibAopProxy)
    private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
            CLASS_LOADER);

    private static final String FLOW = "kotlinx.coroutines.flow.Flow";

    // Spring's proxies await a suspend function's Mono through kotlinx-coroutines-reactive, whose
    // class reads its jar's services when it is first initialised
    private static final String AWAITED_THROUGH = "kotlinx.coroutines.reactive.ReactiveFlowKt";

    static final ReturnType VALUE = new ReturnType(Kind.VALUE, null, false);

    static final ReturnType COMPLETION_STAGE = new ReturnType(Kind.COMPLETION_STAGE, null, false);

    /**
     * The kind of the method's results.
     * @throws InvalidRateLimitException for a reactive type without Reactor, which would otherwise
     * be counted when called rather than when subscribed, and for a suspend function without what
     * Spring's proxies need to call it without blocking
     */
    static ReturnType of(Method method, Class<?> targetClass) {
        if (SuspendFunctions.isSuspending(method)) {
            return suspending(method, targetClass);
        }
        Class<?> type = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(type) && type.isAssignableFrom(CompletableFuture.class)) {
            return COMPLETION_STAGE;
        }
        if (REACTOR_PRESENT) {
            ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
            if (adapter != null) {
                return new ReturnType(Kind.PUBLISHER, adapter, false);
            }
        }
        else if (REACTIVE_STREAMS_PRESENT && org.reactivestreams.Publisher.class.isAssignableFrom(type)) {
            throw InvalidLimits.of(targetClass, method, "(return type)", type.getSimpleName(),
                    "is a reactive type; deciding its calls once per subscription needs Reactor "
                            + "(io.projectreactor:reactor-core) on the classpath",
                    null);
        }
        return VALUE;
    }

    private static ReturnType suspending(Method method, Class<?> targetClass) {
        List<String> missing = new ArrayList<>();
        if (!COROUTINES_REACTOR_PRESENT) {
            missing.add("org.jetbrains.kotlinx:kotlinx-coroutines-reactor");
        }
        if (!KotlinDetector.isKotlinReflectPresent()) {
            missing.add("org.jetbrains.kotlin:kotlin-reflect");
        }
        if (!missing.isEmpty()) {
            throw InvalidLimits.of(targetClass, method, "(return type)", "suspend",
                    "makes a Kotlin suspend function, which Spring's proxies call without blocking only with "
                            + "kotlinx-coroutines-reactor and kotlin-reflect on the classpath; add "
                            + String.join(" and ", missing),
                    null);
        }
        initializeAtStart(AWAITED_THROUGH, method.getDeclaringClass().getClassLoader());
        // the Kotlin return type, as Spring's proxies tell a Flow (CoroutinesUtils.adaptReturnValue)
        boolean flow = FLOW.equals(new MethodParameter(method, -1).getParameterType().getName());
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance()
            .getAdapter(flow ? reactor.core.publisher.Flux.class : reactor.core.publisher.Mono.class);
        return new ReturnType(Kind.PUBLISHER, adapter, true);
    }

    /**
     * Initialises a class now, at start, that the first call would otherwise initialise on an
     * event loop, reading files (which BlockHound reports as a blocking call, rightly).
     */
    private static void initializeAtStart(String className, @Nullable ClassLoader classLoader) {
        try {
            Class.forName(className, true, (classLoader != null) ? classLoader : CLASS_LOADER);
        }
        catch (ClassNotFoundException | LinkageError ex) {
            // not there: Spring's proxies do not take that path
        }
    }

    /** The kinds of result. */
    enum Kind {

        /** Decided when called, on the calling thread. */
        VALUE,

        /** Decided when called, without blocking; the body runs once the decision allows it. */
        COMPLETION_STAGE,

        /**
         * Decided once per subscription, without blocking; the body runs once per allowed one. A
         * suspend function's call is one subscription.
         */
        PUBLISHER

    }

}
