package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.annotation.RateLimit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

/**
 * Settles one call of a method whose limits have an {@link RateLimit#actualCost()}: it hears the
 * call's decisions, as a listener of this call alone, and once the call ran, gives back or charges
 * the difference under each limit that allowed it ({@link RateLimiter#settleAsync}). A call no
 * decision counted (one let through uncounted while Redis could not decide) has nothing to settle,
 * nor has one decided in the instance's memory ({@link Decision#local()}).
 *
 * <p>Settling never fails the call: its own result or exception stands. What cannot be settled
 * keeps the cost it took: an expression that fails is logged as an ERROR once per limit, a Redis
 * that cannot be reached is reported as a decision's failure is (health, and the limiter's log).
 */
final class Settlement implements RateLimitListener {

    private static final Log logger = LogFactory.getLog(Settlement.class);

    // limits whose actual cost could not be evaluated or settled: each is logged once
    private static final Set<String> failedLimits = ConcurrentHashMap.newKeySet();

    private final MethodLimits limits;

    private final Method method;

    private final @Nullable Object[] args;

    private final RateLimiter limiter;

    private volatile @Nullable Decided decided;

    Settlement(MethodLimits limits, Method method, @Nullable Object[] args, RateLimiter limiter) {
        this.limits = limits;
        this.method = method;
        this.args = args;
        this.limiter = limiter;
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        this.decided = new Decided(requests, decisions, System.nanoTime());
    }

    /**
     * Settles the call that ran.
     * @param result what it returned or completed with, or {@code null}
     * @param exception what it threw or failed with, or {@code null}
     * @return completes once every difference is written, or could not be; never fails
     */
    CompletableFuture<Void> settle(@Nullable Object result, @Nullable Throwable exception) {
        Decided call = this.decided;
        if (call == null) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<?>> settling = new ArrayList<>(1);
        for (int i = 0; i < call.requests().size(); i++) {
            LimitRequest request = call.requests().get(i);
            Decision decision = call.decisions().get(i);
            ActualCost actualCost = this.limits.actualCosts().get(request.limitId());
            // a call decided locally, while Redis could not, counted nothing in Redis
            if (actualCost == null || decision.outcome() != Decision.Outcome.ALLOWED || decision.local()) {
                continue;
            }
            try {
                long actual = actualCost.resolve(this.method, this.args, result, exception);
                if (actual != request.cost()) {
                    settling.add(this.limiter
                        .settleAsync(request, decision, actual, Duration.ofNanos(System.nanoTime() - call.at()))
                        .toCompletableFuture()
                        .handle((changed, failure) -> {
                            if (failure != null) {
                                failed(request, actualCost, (failure instanceof CompletionException && failure.getCause() != null)
                                        ? failure.getCause() : failure);
                            }
                            return null;
                        }));
                }
            }
            catch (RuntimeException ex) {
                failed(request, actualCost, ex);
            }
        }
        return CompletableFuture.allOf(settling.toArray(CompletableFuture[]::new));
    }

    private static void failed(LimitRequest request, ActualCost actualCost, Throwable failure) {
        if (failure instanceof DataAccessException) {
            // Redis could not settle: reported as a decision's failure, by the limiter
            if (logger.isDebugEnabled()) {
                logger.debug("A call under '" + request.limitId() + "' could not be settled: " + failure);
            }
            return;
        }
        if (failedLimits.add(request.limitId())) {
            logger.error("A call under rate limit '" + request.limitId() + "' could not be settled with its actualCost '"
                    + actualCost.text() + "'; it keeps the cost it took (" + request.cost() + "). Logged once per limit",
                    failure);
        }
    }

    private record Decided(List<LimitRequest> requests, List<Decision> decisions, long at) {
    }

}
