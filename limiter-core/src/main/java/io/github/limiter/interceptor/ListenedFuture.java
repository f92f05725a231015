package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;

import org.jspecify.annotations.Nullable;

/**
 * The future a limited method returning a {@code CompletionStage} hands back. It hears the call's
 * decision and tells it to listeners that come later, once the caller's framework knows whom the
 * call serves: a listener that comes after the decision is told it at once, one that comes before
 * is told when it is made; each is told once.
 *
 * @param <T> the method's result
 */
final class ListenedFuture<T> extends CompletableFuture<T> implements RateLimitListener {

    private final AtomicReference<State> state = new AtomicReference<>(new State(null, null));

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        Decided decided = new Decided(requests, decisions, binding, latency);
        State before = this.state.getAndUpdate(current -> new State(decided, current.listener()));
        if (before.listener() != null) {
            decided.tell(before.listener());
        }
    }

    /** Tells the listener this call's decision, now if it has been made, else when it is. */
    void listen(RateLimitListener listener) {
        State before = this.state
            .getAndUpdate(current -> new State(current.decided(), CallListener.both(current.listener(), listener)));
        if (before.decided() != null) {
            before.decided().tell(listener);
        }
    }

    private record State(@Nullable Decided decided, @Nullable RateLimitListener listener) {
    }

    private record Decided(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {

        void tell(RateLimitListener listener) {
            listener.onDecision(this.requests, this.decisions, this.binding, this.latency);
        }

    }

}
