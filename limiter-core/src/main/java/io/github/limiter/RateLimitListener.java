package io.github.limiter;

import java.time.Duration;
import java.util.List;

/**
 * Told about every decision a {@link RateLimiter} makes, for metrics, logs, HTTP headers and
 * events. The starter registers its own (Spring events, Micrometer meters, rate-limit headers);
 * applications add theirs as beans. Called on the thread of the limited call, or, for a decision
 * made without blocking ({@link RateLimiter#tryAcquireAsync}, and methods returning a reactive type
 * or a {@code CompletionStage}), on the thread that completes it: usually the Redis client's I/O
 * thread. Keep it quick, never block in it, and do not throw (a listener's exception is logged and
 * ignored).
 *
 * @since 0.1.0
 */
public interface RateLimitListener {

    /**
     * Called after a call was decided.
     * @param requests the limits the call was under
     * @param decisions each limit's decision, in the order of {@code requests}
     * @param binding the decision the caller acts on (see {@link Decision})
     * @param latency how long the round trip to Redis took
     */
    default void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
    }

    /**
     * Called when a call could not be decided, such as when Redis could not be reached.
     * @param requests the limits the call was under
     * @param error the failure
     * @param latency how long the attempt took
     */
    default void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
    }

    /**
     * Called when Redis decided a call after its caller had stopped waiting: the call timed out
     * (it followed its on-failure setting, and {@link #onError} was called for it), but its script
     * ran all the same, late, and what it counted and the alerts and bans it started stand. Only the
     * alerts and bans are news here ({@link Decision#alertRaised()}, {@link Decision#banStarted()}):
     * each is reported once, either by {@link #onDecision} or by this method. Called on the thread
     * that read the reply (Lettuce's I/O thread, or one of the limiter's own with Jedis), never
     * with a per-call listener (the call is over).
     * @param requests the limits the script decided; under several limits in different Redis
     * Cluster slots, those of one slot
     * @param decisions each limit's decision, in the order of {@code requests}
     * @since 0.1.0
     */
    default void onLateDecision(List<LimitRequest> requests, List<Decision> decisions) {
    }

    /**
     * Called when a limit was left out of a call: its key evaluated to {@code null} or a blank
     * string and the application skips such limits ({@code limiter.blank-key=skip}). The call was
     * not counted under this limit; its other limits still applied.
     * @param limitId the limit's id
     * @param limit the limit that was skipped
     * @since 0.1.0
     */
    default void onSkipped(String limitId, Limit limit) {
    }

}
