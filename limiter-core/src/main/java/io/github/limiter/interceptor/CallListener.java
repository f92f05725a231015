package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;

import org.jspecify.annotations.Nullable;

/**
 * What one call's decisions go to, besides the limiter's own listeners: the web request's listener
 * (the rate-limit headers, see {@link RateLimitAdvisor#CALL_LISTENER_ATTRIBUTE}), the settlement of
 * a cost known after the call, the future a framework listens to later. Two are told as one, each
 * even if the other throws.
 */
final class CallListener {

    private CallListener() {
    }

    static @Nullable RateLimitListener both(@Nullable RateLimitListener first, @Nullable RateLimitListener second) {
        if (first == null) {
            return second;
        }
        if (second == null) {
            return first;
        }
        return new RateLimitListener() {

            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                try {
                    first.onDecision(requests, decisions, binding, latency);
                }
                finally {
                    second.onDecision(requests, decisions, binding, latency);
                }
            }

            @Override
            public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
                try {
                    first.onError(requests, error, latency);
                }
                finally {
                    second.onError(requests, error, latency);
                }
            }

            @Override
            public void onSkipped(String limitId, Limit limit) {
                try {
                    first.onSkipped(limitId, limit);
                }
                finally {
                    second.onSkipped(limitId, limit);
                }
            }

        };
    }

}
