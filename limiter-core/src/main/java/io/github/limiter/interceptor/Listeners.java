package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;

import org.jspecify.annotations.Nullable;

/** Two listeners of one call told as one; each is told even if the other throws. */
final class Listeners {

    private Listeners() {
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
