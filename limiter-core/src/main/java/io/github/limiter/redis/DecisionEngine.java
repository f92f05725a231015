package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitChecks;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.github.limiter.internal.transport.ScriptRunner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One decision, whichever way the script runs: refuse from memory what Redis refused lately, else
 * run the script once (per Cluster slot, if the limits' keys span several), remember what it
 * refused, pick the binding decision, and tell the listeners. The blocking and the non-blocking
 * limiter differ only in the {@link ScriptRunner} they pass.
 */
final class DecisionEngine {

    private static final Log logger = LogFactory.getLog(RedisRateLimiter.class);

    private final String keyPrefix;

    private final List<RateLimitListener> listeners;

    private final @Nullable LocalRefusals localRefusals;

    private final boolean cluster;

    // What the decisions that asked Redis last have met: logged once per change, read by health.
    private final DecisionFailures failures;

    // Decisions whose caller stopped waiting and whose reply never came: logged once per streak.
    private final AtomicBoolean unanswered = new AtomicBoolean();

    // keys compared in normalization form C (RedisKeys); the builder may switch it off
    private volatile boolean normalizeKeys = true;

    /**
     * @param permissionMessage what Redis's refusal of a permission means, and what to grant
     * @param permissionErrorLogged whether the check logged a permission error already
     */
    DecisionEngine(String keyPrefix, List<RateLimitListener> listeners, @Nullable LocalRefusals localRefusals,
            boolean cluster, UnaryOperator<String> permissionMessage, BooleanSupplier permissionErrorLogged) {
        this.keyPrefix = keyPrefix;
        this.listeners = List.copyOf(listeners);
        this.localRefusals = localRefusals;
        this.cluster = cluster;
        this.failures = new DecisionFailures(permissionMessage, permissionErrorLogged);
        // The scripts are read from the jar here, on the thread that builds the limiter, not by the
        // first decision: with Redis down at start, that may be made on an event loop, and served
        // (on-failure local or allow), without any check having read them before.
        Objects.requireNonNull(DecisionScript.SCRIPT);
    }

    void normalizeKeys(boolean normalizeKeys) {
        this.normalizeKeys = normalizeKeys;
    }

    /**
     * Decides a call. With a blocking runner the future has completed when this returns.
     * @param callListener one more listener for this call only, or {@code null}
     * @return the binding decision; failed with the runner's failure, unwrapped
     */
    CompletableFuture<Decision> decide(List<LimitRequest> requests, ScriptRunner<? super DecisionArguments> runner,
            @Nullable RateLimitListener callListener) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("A call must be under at least one limit");
        }
        // each limit's state key is built once per call: for memory, for the script, and to remember
        String[] stateKeys = new String[requests.size()];
        for (int i = 0; i < stateKeys.length; i++) {
            stateKeys[i] = stateKey(requests.get(i));
        }
        Decision refused = refuseFromMemory(requests, stateKeys, callListener);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        long start = System.nanoTime();
        List<List<Integer>> groups = this.cluster ? AcrossSlots.slotGroups(stateKeys) : List.of();
        CompletableFuture<List<Decision>> decided = (groups.size() > 1)
                ? AcrossSlots.decide(requests, groups,
                        (mode, group) -> run(runner, mode, select(requests, group), select(stateKeys, group)))
                : run(runner, DecisionScript.ACQUIRE, requests, stateKeys);
        CompletableFuture<Decision> result = new CompletableFuture<>();
        decided.whenComplete((decisions, failure) -> {
            Duration latency = Duration.ofNanos(System.nanoTime() - start);
            if (failure != null) {
                Throwable cause = unwrap(failure);
                failed(requests, cause, latency, callListener);
                result.completeExceptionally(cause);
                return;
            }
            try {
                result.complete(decided(requests, stateKeys, decisions, latency, callListener));
            }
            catch (RuntimeException ex) {
                result.completeExceptionally(ex);
            }
        });
        return result;
    }

    /**
     * Settles a call allowed earlier under one limit: the difference between its actual cost and
     * the cost its decision took is given back or charged in the window the call was decided in,
     * while that window runs. A count that fell is announced to the instances that remember
     * refusals, this one first. A failure counts as a decision's does, for health and the log.
     * The call's window is the one that ends {@code decision.resetAfter()} after the decision, found
     * from {@code sinceDecision} as long as that is shorter than the window.
     * @return whether a count changed
     * @throws IllegalArgumentException for an algorithm that cannot settle, or a negative actual cost
     */
    CompletableFuture<Boolean> settle(LimitRequest request, Decision decision, long actualCost, Duration sinceDecision,
            ScriptRunner<? super DecisionArguments> runner) {
        if (!DecisionScript.settles(request.limit().algorithm())) {
            throw new IllegalArgumentException("Calls under " + request.limit().algorithm() + " ('"
                    + request.limitId() + "') cannot be settled: only FIXED_WINDOW and SLIDING_WINDOW keep counts "
                    + "per window");
        }
        if (actualCost < 0) {
            throw new IllegalArgumentException("actual cost " + actualCost + " of a call under '" + request.limitId()
                    + "' is negative");
        }
        long delta = actualCost - request.cost();
        if (delta == 0) {
            return CompletableFuture.completedFuture(false);
        }
        long decidedResetMillis = decision.resetAfter().toMillis();
        long sinceMillis = sinceDecision.toMillis();
        String stateKey = stateKey(request);
        String channel = (this.localRefusals != null) ? RedisLayout.invalidationChannel(this.keyPrefix) : "";
        DecisionArguments call = new DecisionArguments(DecisionScript.SETTLE, 1).addSettlement(stateKey, request.limit(), delta,
                decidedResetMillis, sinceMillis, channel);
        return runner.run(call).handle((reply, failure) -> {
            if (failure != null) {
                Throwable cause = unwrap(failure);
                this.failures.failed(cause);
                throw (cause instanceof RuntimeException runtime) ? runtime : new CompletionException(cause);
            }
            this.failures.succeeded();
            boolean changed = DecisionReply.settled(reply);
            if (changed && delta < 0 && this.localRefusals != null) {
                this.localRefusals.invalidate(stateKey);
            }
            return changed;
        });
    }

    /** Tells the listeners about a call the instance decided in its own memory, with no Redis latency. */
    void decidedLocally(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            @Nullable RateLimitListener callListener) {
        notify(callListener, listener -> listener.onDecision(requests, decisions, binding, Duration.ZERO));
    }

    /** Checks every limit id; throws {@link IllegalArgumentException} for an invalid one. */
    static void checkLimitId(String limitId) {
        Objects.requireNonNull(limitId, "limitId must not be null");
        String problem = LimitChecks.limitIdProblem(limitId);
        if (problem != null) {
            throw new IllegalArgumentException("limitId '" + limitId + "' " + problem);
        }
    }

    /** What the latest decisions met, for health. */
    DecisionFailures failures() {
        return this.failures;
    }

    /** Waits for a decision; its failure is thrown as it is, not wrapped. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        }
        catch (CompletionException ex) {
            Throwable cause = unwrap(ex);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw ex;
        }
    }

    static Throwable unwrap(Throwable failure) {
        return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
    }

    private @Nullable Decision refuseFromMemory(List<LimitRequest> requests, String[] stateKeys,
            @Nullable RateLimitListener callListener) {
        if (this.localRefusals == null) {
            return null;
        }
        for (int i = 0; i < stateKeys.length; i++) {
            LimitRequest request = requests.get(i);
            Decision refused = (request.limit().mode() == Limit.Mode.ENFORCE)
                    ? this.localRefusals.refuse(stateKeys[i], request) : null;
            if (refused != null) {
                // decided from memory: only this limit is reported, with no Redis latency
                notify(callListener, listener -> listener.onDecision(List.of(request), List.of(refused), refused,
                        Duration.ZERO));
                return refused;
            }
        }
        return null;
    }

    private CompletableFuture<List<Decision>> run(ScriptRunner<? super DecisionArguments> runner, byte[] mode, List<LimitRequest> requests,
            String[] stateKeys) {
        DecisionArguments call = new DecisionArguments(mode, requests.size());
        for (int i = 0; i < requests.size(); i++) {
            LimitRequest request = requests.get(i);
            call.add(stateKeys[i], request.limit(), request.cost());
        }
        if (mode == DecisionScript.ACQUIRE) {
            // only a call that counts can start an alert or a ban after its caller stopped waiting
            call.onLateReply(new DecisionArguments.LateReply() {

                @Override
                public void replied(List<Long> reply) {
                    decidedLate(requests, stateKeys, reply);
                }

                @Override
                public void unanswered(Throwable failure) {
                    unansweredLate(failure);
                }

            });
        }
        return runner.run(call).thenApply(reply -> DecisionReply.decisions(requests, reply));
    }

    /**
     * A decision Redis made after its caller had stopped waiting: it stands, so its refusals are
     * remembered as any other's, and the listeners hear it, for its alerts and bans. The call itself
     * was reported as failed, and stays so.
     */
    private void decidedLate(List<LimitRequest> requests, String[] stateKeys, List<Long> reply) {
        repliedAgain();
        List<Decision> decisions;
        try {
            decisions = DecisionReply.decisions(requests, reply);
        }
        catch (RuntimeException ex) {
            logger.error("Rate limiting could not read a late decision's reply " + reply, ex);
            return;
        }
        if (this.localRefusals != null) {
            for (int i = 0; i < requests.size(); i++) {
                this.localRefusals.remember(stateKeys[i], requests.get(i), decisions.get(i));
            }
        }
        if (logger.isDebugEnabled()) {
            logger.debug("Decided after the call had stopped waiting: " + decisions);
        }
        for (RateLimitListener listener : this.listeners) {
            tell(listener, each -> each.onLateDecision(requests, decisions));
        }
    }

    private void repliedAgain() {
        // read first: a write on every decision would bounce the flag between cores
        if (this.unanswered.get()) {
            this.unanswered.set(false);
        }
    }

    /** A decision whose caller had stopped waiting, and whose reply will never come. */
    private void unansweredLate(Throwable failure) {
        if (this.unanswered.compareAndSet(false, true)) {
            logger.warn("Rate limiting got no reply to a decision whose call had timed out (" + failure.getMessage()
                    + "); had Redis made it, its alert or ban would have no event on this instance. Until a "
                    + "reply comes again, further such decisions are not logged");
        }
    }

    private Decision decided(List<LimitRequest> requests, String[] stateKeys, List<Decision> decisions,
            Duration latency, @Nullable RateLimitListener callListener) {
        this.failures.succeeded();
        repliedAgain();
        if (this.localRefusals != null) {
            for (int i = 0; i < requests.size(); i++) {
                this.localRefusals.remember(stateKeys[i], requests.get(i), decisions.get(i));
            }
        }
        Decision binding = Decision.binding(decisions);
        if (logger.isDebugEnabled()) {
            logger.debug("Decided " + decisions + " in " + latency.toNanos() / 1000 + " us");
        }
        notify(callListener, listener -> listener.onDecision(requests, decisions, binding, latency));
        return binding;
    }

    private void failed(List<LimitRequest> requests, Throwable cause, Duration latency,
            @Nullable RateLimitListener callListener) {
        this.failures.failed(cause);
        if (cause instanceof RuntimeException exception) {
            notify(callListener, listener -> listener.onError(requests, exception, latency));
        }
    }

    private String stateKey(LimitRequest request) {
        checkLimitId(request.limitId());
        return RedisKeys.state(this.keyPrefix, request.limitId(), request.key(), this.normalizeKeys);
    }

    private static List<LimitRequest> select(List<LimitRequest> requests, List<Integer> indexes) {
        return indexes.stream().map(requests::get).toList();
    }

    private static String[] select(String[] stateKeys, List<Integer> indexes) {
        return indexes.stream().map(i -> stateKeys[i]).toArray(String[]::new);
    }

    private void notify(@Nullable RateLimitListener callListener, Consumer<RateLimitListener> call) {
        for (RateLimitListener listener : this.listeners) {
            tell(listener, call);
        }
        if (callListener != null) {
            tell(callListener, call);
        }
    }

    private static void tell(RateLimitListener listener, Consumer<RateLimitListener> call) {
        try {
            call.accept(listener);
        }
        catch (RuntimeException ex) {
            logger.error("Rate limit listener " + listener + " failed", ex);
        }
    }

}
