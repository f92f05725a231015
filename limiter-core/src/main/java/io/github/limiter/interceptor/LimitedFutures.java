package io.github.limiter.interceptor;

import java.util.concurrent.CompletableFuture;

import io.github.limiter.RateLimitListener;
import reactor.core.publisher.Mono;

import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.ReactiveTypeDescriptor;

/**
 * The {@code CompletableFuture}s that limited methods return, as a reactive framework sees them. Such
 * a method is decided when it is called, where nothing tells which request the call serves; Spring
 * WebFlux then adapts the future to a Reactor publisher through its {@link ReactiveAdapterRegistry}.
 * With the adapter registered here, that publisher tells the {@link RateLimitListener} of its
 * subscriber's Reactor context (under {@link RateLimitAdvisor#CALL_LISTENER_ATTRIBUTE}) the call's decision,
 * as a limited {@code Mono} or {@code Flux} does: the starter's reactive web support writes it into
 * the response's rate-limit headers. Needs Reactor on the classpath.
 * {@link RateLimitAdvisor#registerFutureAdapter} is how other packages reach it.
 */
final class LimitedFutures {

    private LimitedFutures() {
    }

    /**
     * Registers the adapter of the limiter's futures with a registry, after the adapters it has.
     * Every other {@code CompletionStage} keeps the registry's own adapter.
     * @param registry the registry through which a framework adapts results, such as Spring
     * WebFlux's {@code webFluxAdapterRegistry} bean
     */
    static void registerAdapter(ReactiveAdapterRegistry registry) {
        ReactiveTypeDescriptor type = ReactiveTypeDescriptor.singleOptionalValue(ListenedFuture.class,
                () -> CompletableFuture.completedFuture(null));
        registry.registerReactiveType(type, LimitedFutures::toPublisher, publisher -> Mono.from(publisher).toFuture());
    }

    private static Mono<?> toPublisher(Object source) {
        ListenedFuture<?> future = (ListenedFuture<?>) source;
        return Mono.deferContextual(context -> {
            RateLimitListener listener = context.getOrDefault(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, null);
            if (listener != null) {
                future.listen(listener);
            }
            return Mono.fromCompletionStage(future);
        });
    }

}
