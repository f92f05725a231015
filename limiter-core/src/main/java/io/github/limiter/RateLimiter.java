package io.github.limiter;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * Decides whether a call under one or more named limits may proceed, for code that does not use
 * {@link io.github.limiter.annotation.RateLimit @RateLimit}. Reading or clearing a key's state is
 * {@link RateLimitAdmin}'s, a separate interface, which the starter's limiter implements too.
 *
 * <p>The Spring Boot starter provides one as a bean, backed by Redis: every decision is one atomic
 * Lua script, so all application instances sharing the Redis share the counts and the bans.
 *
 * <pre class="code">
 * Decision decision = rateLimiter.tryAcquire("exports", userId, 5, Duration.ofMinutes(1));
 * if (!decision.allowed()) {
 *     throw new RateLimitExceededException(decision);
 * }
 * </pre>
 *
 * <p>Limit ids are not blank and have no {@code '{'}, {@code '}'}, {@code ':'} or whitespace.
 * A key is any string; the empty string is one key shared by every caller.
 *
 * @since 0.1.0
 */
public interface RateLimiter {

    /**
     * Decides one call under several limits at once: it passes only if every limit allows it, and
     * then counts under each; a rejected call is counted by none. Limits that go past their max and
     * have a ban ban their key; while a key is banned, its calls are rejected without being counted.
     * @param requests the limits the call must pass, with their keys and costs; not empty
     * @return the decision of the limit that binds (see {@link Decision})
     * @throws IllegalArgumentException if a limit id is invalid or the list is empty
     */
    Decision tryAcquire(List<LimitRequest> requests);

    /**
     * Decides a call as {@link #tryAcquire(List)} does, and tells one more listener about this
     * call's decisions, as {@link #tryAcquireAsync(List, RateLimitListener)} does: for code that
     * needs every limit's decision of the call, such as settling its actual cost once it ran. This
     * default tells the listener of the binding decision, under the request of its limit.
     * @param requests the limits the call must pass
     * @param listener told about this call's decisions, or {@code null}
     * @return the binding decision
     * @since 0.1.0
     */
    default Decision tryAcquire(List<LimitRequest> requests, @Nullable RateLimitListener listener) {
        Decision decision = tryAcquire(requests);
        if (listener != null) {
            tell(listener, requests, decision);
        }
        return decision;
    }

    /**
     * Counts one call under one limit and decides whether it may proceed.
     * @param limitId the limit's id, such as {@code "AnswerController.answer"}
     * @param key the key the limit applies to, such as a user id
     * @param limit what the limit allows
     * @return the decision
     * @throws IllegalArgumentException if the limit id is invalid
     */
    default Decision tryAcquire(String limitId, String key, Limit limit) {
        return tryAcquire(List.of(LimitRequest.of(limitId, key, limit)));
    }

    /**
     * Counts one call under a fixed-window limit of {@code max} calls per {@code window}, with no
     * alert and no ban.
     * @param limitId the limit's id
     * @param key the key the limit applies to
     * @param max the calls allowed per window, at least 1
     * @param window the window's length, at least 1 ms
     * @return the decision
     * @throws IllegalArgumentException if an argument is invalid
     */
    default Decision tryAcquire(String limitId, String key, long max, Duration window) {
        return tryAcquire(limitId, key, Limit.of(max, window));
    }

    /**
     * Decides one call under several limits, as {@link #tryAcquire(List)} does, without blocking
     * the calling thread: for reactive and asynchronous code, and for event-loop threads. The same
     * script, the same tiers, the same refusals from memory.
     *
     * <p>The stage fails with the {@link org.springframework.dao.DataAccessException} of the
     * failure when Redis cannot decide (the caller chooses what that means, as the annotation's
     * on-failure setting does), and with {@link IllegalArgumentException} for an invalid request.
     * Code that continues on it runs on the thread that completes it, usually the Redis client's
     * I/O thread: do not block there.
     *
     * <p>This default decides on the calling thread with {@link #tryAcquire(List)} and returns a
     * completed stage; the Redis-backed limiter overrides it and never blocks.
     * @param requests the limits the call must pass, with their keys and costs; not empty
     * @return the decision of the limit that binds
     * @since 0.1.0
     */
    default CompletionStage<Decision> tryAcquireAsync(List<LimitRequest> requests) {
        try {
            return CompletableFuture.completedFuture(tryAcquire(requests));
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Decides a call without blocking, as {@link #tryAcquireAsync(List)} does, and tells one more
     * listener about this call's decisions: for code that answers the call, such as the reactive
     * web support, which puts the decisions in the response's headers. This default tells the
     * listener of the binding decision, under the request of its limit, once the stage completes
     * with a decision; a limiter that knows every decision of the call tells them all.
     * @param requests the limits the call must pass
     * @param listener told about this call's decisions, or {@code null}
     * @return the binding decision
     * @since 0.1.0
     */
    default CompletionStage<Decision> tryAcquireAsync(List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        CompletionStage<Decision> decided = tryAcquireAsync(requests);
        if (listener == null) {
            return decided;
        }
        return decided.thenApply(decision -> {
            tell(listener, requests, decision);
            return decision;
        });
    }

    /**
     * Tells this limiter's listeners, and one more, about a call decided without it: decided by the
     * instance in its own memory while this limiter could not decide ({@link OnFailure#LOCAL}), so
     * that such decisions reach the meters, events and response headers this limiter's own reach.
     * The decisions say so ({@link Decision#local()}); the latency is zero. This default tells only
     * the given listener; the Redis-backed limiter tells its listeners first.
     * @param requests the limits the call was decided under
     * @param decisions each limit's decision, in the order of {@code requests}
     * @param binding the decision the caller acts on
     * @param listener one more listener, of this call only, or {@code null}
     * @since 0.1.0
     */
    default void decidedLocally(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            @Nullable RateLimitListener listener) {
        if (listener != null) {
            listener.onDecision(requests, decisions, binding, Duration.ZERO);
        }
    }

    /** Tells a listener the binding decision of a call, under the request of its limit. */
    private static void tell(RateLimitListener listener, List<LimitRequest> requests, Decision decision) {
        LimitRequest request = requests.stream()
            .filter(candidate -> candidate.limitId().equals(decision.limitId()))
            .findFirst()
            .orElse(requests.get(0));
        listener.onDecision(List.of(request), List.of(decision), decision, Duration.ZERO);
    }

    /**
     * Counts one call under one limit without blocking; see {@link #tryAcquireAsync(List)}.
     * @param limitId the limit's id
     * @param key the key the limit applies to
     * @param limit what the limit allows
     * @return the decision
     * @since 0.1.0
     */
    default CompletionStage<Decision> tryAcquireAsync(String limitId, String key, Limit limit) {
        return tryAcquireAsync(List.of(LimitRequest.of(limitId, key, limit)));
    }

    /**
     * Settles a call whose real cost was known only once it ran ({@code @RateLimit(actualCost = ...)}):
     * gives back, or charges, the difference between {@code actualCost} and the permits its request
     * took, in the window the call was decided in. Once that window has ended nothing is written;
     * a count never falls below 0; nothing written lives longer than the window. Alerts and bans
     * are decided with calls, not here. Only an allowed call is settled.
     * @param request the call's request under one limit, as it was decided
     * @param decision that limit's decision of the call (see {@link RateLimitListener#onDecision})
     * @param actualCost what the call cost, 0 or more
     * @param sinceDecision the time from the decision's answer to now
     * @return completes with whether a count changed, or fails as a decision would when Redis
     * cannot settle
     * @since 0.1.0
     */
    default CompletionStage<Boolean> settleAsync(LimitRequest request, Decision decision, long actualCost,
            Duration sinceDecision) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(getClass().getName()
                + " cannot settle calls after they ran (@RateLimit's actualCost)"));
    }

}
