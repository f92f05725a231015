package io.github.limiter.reactive;

import java.util.List;
import java.util.Objects;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimiter;
import reactor.core.publisher.Mono;

/**
 * The {@link RateLimiter}'s decisions as {@link Mono}s, for reactive code that does not use
 * {@link io.github.limiter.annotation.RateLimit @RateLimit}: nothing is counted until a
 * subscription, and each subscription is one decision, made without blocking.
 *
 * <pre class="code">
 * return reactiveRateLimiter.tryAcquire("exports", userId, Limit.of(5, Duration.ofMinutes(1)))
 *     .flatMap(decision -&gt; decision.allowed() ? export(userId)
 *             : Mono.error(new RateLimitExceededException(decision)));
 * </pre>
 *
 * <p>The Spring Boot starter provides one as a bean where Reactor is on the classpath.
 *
 * @since 0.1.0
 */
public final class ReactiveRateLimiter {

    private final RateLimiter rateLimiter;

    /**
     * Creates one over a limiter.
     * @param rateLimiter decides; its {@link RateLimiter#tryAcquireAsync(List)} is called once per
     * subscription
     */
    public ReactiveRateLimiter(RateLimiter rateLimiter) {
        this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter must not be null");
    }

    /**
     * Decides one call under several limits on each subscription; see
     * {@link RateLimiter#tryAcquire(List)}.
     * @param requests the limits the call must pass; not empty
     * @return the binding decision; an error signal with the
     * {@link org.springframework.dao.DataAccessException} of the failure if Redis cannot decide
     */
    public Mono<Decision> tryAcquire(List<LimitRequest> requests) {
        List<LimitRequest> copy = List.copyOf(requests);
        return Mono.defer(() -> Mono.fromCompletionStage(this.rateLimiter.tryAcquireAsync(copy)));
    }

    /**
     * Counts one call under one limit on each subscription.
     * @param limitId the limit's id
     * @param key the key the limit applies to
     * @param limit what the limit allows
     * @return the decision
     */
    public Mono<Decision> tryAcquire(String limitId, String key, Limit limit) {
        return tryAcquire(List.of(LimitRequest.of(limitId, key, limit)));
    }

}
