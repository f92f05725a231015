package io.github.limiter.interceptor;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;

/**
 * Limits a method returning a reactive type once per subscription, as Spring's own retry
 * interceptor re-runs one: nothing happens when the method is called; each subscription is decided
 * without blocking, and only an allowed one runs the method's body, on a clone of the invocation, and
 * subscribes to what it returns. A refusal is an error signal carrying
 * {@link RateLimitExceededException}, or the fallback's result.
 *
 * <p>A {@link RateLimitListener} found in the subscriber's Reactor context under
 * {@link RateLimitAdvisor#CALL_LISTENER_ATTRIBUTE} is told about the decisions made for it: the
 * reactive web support puts the response's headers there. An observation in the context (Spring WebFlux's of the request)
 * is the parent of the decision's. Only loaded when Reactor is on the classpath.
 */
final class ReactiveCalls {

    /** Decides a call without blocking. */
    @FunctionalInterface
    interface Decide {

        CompletionStage<Decision> decide(MethodLimits limits, List<LimitRequest> requests,
                @Nullable RateLimitListener listener);

    }

    private ReactiveCalls() {
    }

    /**
     * The result of a limited call, decided per subscription.
     * @param requests the call's limits, from the client's address the subscriber's context holds
     * (see {@link WebRequests}); none if every limit was skipped for a blank key
     */
    static Object perSubscription(MethodInvocation invocation, MethodLimits limits,
            Function<@Nullable String, List<LimitRequest>> requests, Decide decide,
            Supplier<@Nullable Settlement> settlements) {
        ReactiveAdapter adapter = adapter(limits.returns());
        Publisher<Object> result = adapter.isMultiValue() ? Flux.deferContextual(context -> {
            List<LimitRequest> these = requests.apply(clientIp(context));
            if (these.isEmpty()) {
                return Flux.from(body(invocation, limits, adapter, null));
            }
            Settlement settlement = settlements.get();
            return decision(limits, these, decide, context, settlement).flatMapMany(decided -> {
                Flux<Object> body = Flux.from(body(invocation, limits, adapter, decided));
                return (settlement != null && decided.allowed()) ? settled(body, settlement) : body;
            });
        }) : Mono.deferContextual(context -> {
            List<LimitRequest> these = requests.apply(clientIp(context));
            if (these.isEmpty()) {
                return Mono.from(body(invocation, limits, adapter, null));
            }
            Settlement settlement = settlements.get();
            return decision(limits, these, decide, context, settlement).flatMap(decided -> {
                Mono<Object> body = Mono.from(body(invocation, limits, adapter, decided));
                return (settlement != null && decided.allowed()) ? settled(body, settlement) : body;
            });
        });
        return adapter.fromPublisher(result);
    }

    /**
     * A {@code Mono} whose call is settled with its value, its error or its emptiness before that
     * reaches the subscriber; a cancelled one keeps its cost.
     */
    private static Mono<Object> settled(Mono<Object> body, Settlement settlement) {
        return body.flatMap(value -> Mono.fromCompletionStage(settlement.settle(value, null)).thenReturn(value))
            .switchIfEmpty(Mono.defer(() -> Mono.fromCompletionStage(settlement.settle(null, null)).then(Mono.empty())))
            .onErrorResume(error -> Mono.fromCompletionStage(settlement.settle(null, error)).then(Mono.error(error)));
    }

    /** A {@code Flux} whose call is settled when it completes or fails ({@code #result} is null). */
    private static Flux<Object> settled(Flux<Object> body, Settlement settlement) {
        return body
            .onErrorResume(error -> Mono.fromCompletionStage(settlement.settle(null, error)).then(Mono.error(error)))
            .concatWith(Mono.defer(() -> Mono.fromCompletionStage(settlement.settle(null, null))).then(Mono.empty()));
    }

    private static @Nullable String clientIp(ContextView context) {
        return context.getOrDefault(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, null);
    }

    private static Mono<Decision> decision(MethodLimits limits, List<LimitRequest> requests, Decide decide,
            ContextView context, @Nullable Settlement settlement) {
        RateLimitListener listener = CallListener.both(context.getOrDefault(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, null), settlement);
        return Mono.fromCompletionStage(ObservationParents.within(context,
                () -> decide.decide(limits, requests, listener)));
    }

    static Object error(ReturnType returns, Throwable error) {
        ReactiveAdapter adapter = adapter(returns);
        return adapter.fromPublisher(adapter.isMultiValue() ? Flux.error(error) : Mono.error(error));
    }

    /**
     * The publisher of one allowed subscription, of the fallback, or of the refusal; with no
     * decision (every limit skipped for a blank key), of the method.
     */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> body(MethodInvocation invocation, MethodLimits limits, ReactiveAdapter adapter,
            @Nullable Decision decision) {
        try {
            Object result;
            if (decision == null || decision.allowed()) {
                // a clone per subscription, so that every allowed one runs the rest of the chain
                result = (invocation instanceof ProxyMethodInvocation proxied) ? proxied.invocableClone().proceed()
                        : invocation.proceed();
            }
            else {
                result = limits.fallBack(invocation.getThis(), invocation.getArguments(),
                        new RateLimitExceededException(decision));
            }
            return (result != null) ? (Publisher<Object>) adapter.toPublisher(result) : Mono.empty();
        }
        catch (Throwable ex) {
            return Mono.error(ex);
        }
    }

    private static ReactiveAdapter adapter(ReturnType returns) {
        ReactiveAdapter adapter = returns.adapter();
        if (adapter == null) {
            throw new IllegalStateException("No reactive adapter for " + returns);
        }
        return adapter;
    }

}
