package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

import static org.assertj.core.api.Assertions.assertThat;

class LimitedFuturesTests {

    private static final Decision DECISION = new Decision("id", "key", Outcome.ALLOWED, 3, 1, 2, Duration.ZERO,
            Duration.ofSeconds(60), false, false, false, false);

    private final ReactiveAdapterRegistry registry = new ReactiveAdapterRegistry();

    private final List<Decision> told = new CopyOnWriteArrayList<>();

    private final RateLimitListener listener = new RateLimitListener() {

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            LimitedFuturesTests.this.told.add(binding);
        }

    };

    LimitedFuturesTests() {
        LimitedFutures.registerAdapter(this.registry);
    }

    @Test
    void aSubscriberLearnsADecisionMadeBeforeItCame() {
        ListenedFuture<String> future = new ListenedFuture<>();
        future.onDecision(List.of(), List.of(DECISION), DECISION, Duration.ZERO);
        future.complete("body");
        assertThat(subscribe(future)).isEqualTo("body");
        assertThat(this.told).containsExactly(DECISION);
    }

    @Test
    void aSubscriberLearnsADecisionMadeAfterItCameOnce() {
        ListenedFuture<String> future = new ListenedFuture<>();
        Mono<String> answer = adapt(future).contextWrite(context -> context.put(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, this.listener));
        CompletableFuture<String> subscribed = answer.toFuture();
        assertThat(this.told).isEmpty();
        future.onDecision(List.of(), List.of(DECISION), DECISION, Duration.ZERO);
        future.complete("body");
        assertThat(subscribed).isCompletedWithValue("body");
        assertThat(this.told).containsExactly(DECISION);
    }

    @Test
    void aSubscriberWithoutAListenerGetsTheResultAlone() {
        ListenedFuture<String> future = new ListenedFuture<>();
        future.onDecision(List.of(), List.of(DECISION), DECISION, Duration.ZERO);
        future.complete("body");
        assertThat(adapt(future).block(Duration.ofSeconds(1))).isEqualTo("body");
    }

    @Test
    void otherFuturesKeepSpringsAdapter() {
        ReactiveAdapter springs = new ReactiveAdapterRegistry().getAdapter(CompletableFuture.class);
        assertThat(this.registry.getAdapter(CompletableFuture.class, new CompletableFuture<>()).getReactiveType())
            .isEqualTo(springs.getReactiveType());
        assertThat(this.registry.getAdapter(CompletableFuture.class, new ListenedFuture<>()).getReactiveType())
            .isEqualTo(ListenedFuture.class);
    }

    private String subscribe(ListenedFuture<String> future) {
        return adapt(future).contextWrite(context -> context.put(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, this.listener))
            .block(Duration.ofSeconds(1));
    }

    private Mono<String> adapt(ListenedFuture<String> future) {
        ReactiveAdapter adapter = this.registry.getAdapter(CompletableFuture.class, future);
        return Mono.from(adapter.toPublisher(future)).cast(String.class);
    }

}
