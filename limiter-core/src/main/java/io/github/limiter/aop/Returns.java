package io.github.limiter.aop;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * How a limited method hands back its result, which says when its calls are decided: a plain value
 * when it is called, a {@link CompletionStage} when it is called but without blocking, and a
 * reactive type (any that Spring's {@link ReactiveAdapterRegistry} knows) once per subscription.
 *
 * @param kind the kind of result
 * @param adapter for a reactive type, its adapter
 */
record Returns(Kind kind, @Nullable ReactiveAdapter adapter) {

    private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
            Returns.class.getClassLoader());

    private static final boolean REACTIVE_STREAMS_PRESENT = ClassUtils.isPresent("org.reactivestreams.Publisher",
            Returns.class.getClassLoader());

    static final Returns VALUE = new Returns(Kind.VALUE, null);

    static final Returns COMPLETION_STAGE = new Returns(Kind.COMPLETION_STAGE, null);

    /**
     * The kind of the method's results.
     * @throws InvalidRateLimitException for a reactive type without Reactor, which would otherwise
     * be counted when called rather than when subscribed
     */
    static Returns of(Method method, Class<?> targetClass) {
        Class<?> type = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(type) && type.isAssignableFrom(CompletableFuture.class)) {
            return COMPLETION_STAGE;
        }
        if (REACTOR_PRESENT) {
            ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
            if (adapter != null) {
                return new Returns(Kind.PUBLISHER, adapter);
            }
        }
        else if (REACTIVE_STREAMS_PRESENT && org.reactivestreams.Publisher.class.isAssignableFrom(type)) {
            throw new InvalidRateLimitException(targetClass, method, "(return type)", type.getSimpleName(),
                    "is a reactive type; deciding its calls once per subscription needs Reactor "
                            + "(io.projectreactor:reactor-core) on the classpath",
                    null);
        }
        return VALUE;
    }

    /** The kinds of result. */
    enum Kind {

        /** Decided when called, on the calling thread. */
        VALUE,

        /** Decided when called, without blocking; the body runs once the decision allows it. */
        COMPLETION_STAGE,

        /** Decided once per subscription, without blocking; the body runs once per allowed one. */
        PUBLISHER

    }

}
