package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Schedulers;

import org.springframework.util.ClassUtils;

/**
 * A call over a limit with a {@code maxWait}, waiting for room instead of being refused: it waits
 * as long as the refusal says ({@link Decision#retryAfter()}), is decided again, and is refused
 * only when the next wait would end past {@code maxWait} from the first refusal. Every attempt is
 * one atomic decision in Redis, so callers waiting on several instances take the room one by one
 * and never together pass {@code max}. A blocking call sleeps on its own thread, except on a
 * non-blocking one (an event loop), where it is refused at once; a non-blocking call
 * is decided again from the JDK's delay scheduler ({@link CompletableFuture#delayedExecutor}),
 * with no thread held while it waits.
 */
final class Waiting {

    private static final long MINIMUM_WAIT = TimeUnit.MILLISECONDS.toNanos(1);

    private static final Log logger = LogFactory.getLog(Waiting.class);

    private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.scheduler.Schedulers",
            Waiting.class.getClassLoader());

    // limits whose blocking waits were refused on a non-blocking thread: each is logged once
    private static final Set<String> onEventLoop = ConcurrentHashMap.newKeySet();

    private Waiting() {
    }

    /** Whether a call under these limits may wait: asked on every call, so it allocates nothing. */
    static boolean mayWait(List<LimitSpec> specs) {
        for (int i = 0; i < specs.size(); i++) {
            LimitSpec spec = specs.get(i);
            if (spec.maxWait() != null || spec.choice() != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * How long a refused call may wait: the {@code maxWait} of the limit that refused it, if
     * Redis refused it for being over the limit or banned; {@code null} for not at all.
     */
    static @Nullable Duration maxWait(List<LimitSpec> specs, Decision refused) {
        if (refused.outcome() == Decision.Outcome.ERROR) {
            return null;
        }
        LimitSpec spec = LimitSpec.find(specs, refused.limitId());
        return (spec != null) ? spec.maxWait() : null;
    }

    /**
     * Decides again on the calling thread, sleeping between attempts, until a decision allows the
     * call or the next wait would pass the limit's {@code maxWait}.
     * @param refused the first decision, which refused the call
     * @param attempt decides the call once more
     * @return the last decision; the refusal it waited on if the thread was interrupted, with the
     * thread's interrupt flag set again
     */
    static Decision blocking(List<LimitSpec> specs, Decision refused, Supplier<Decision> attempt) {
        Duration maxWait = maxWait(specs, refused);
        if (maxWait == null) {
            return refused;
        }
        if (REACTOR_PRESENT && Schedulers.isInNonBlockingThread()) {
            // sleeping there would stall every connection of the event loop: refuse, and say so once
            if (onEventLoop.add(refused.limitId())) {
                logger.warn("Rate limit '" + refused.limitId() + "' has a maxWait, and a call over it was made by a "
                        + "method returning a plain value on the non-blocking thread '"
                        + Thread.currentThread().getName() + "': it is refused at once rather than sleep there. "
                        + "Return a Mono, a Flux or a CompletableFuture to wait without a thread. Logged once per "
                        + "limit");
            }
            return refused;
        }
        long deadline = System.nanoTime() + maxWait.toNanos();
        Decision decision = refused;
        while (!decision.allowed() && fits(decision, deadline)) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait(decision));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return decision;
            }
            decision = attempt.get();
        }
        return decision;
    }

    /**
     * Decides again without blocking, after each wait, until a decision allows the call or the
     * next wait would pass the limit's {@code maxWait}. A caller that cancels the result while it
     * waits is not decided again.
     * @param refused the first decision, which refused the call
     * @param attempt decides the call once more
     * @return the last decision
     */
    static CompletionStage<Decision> nonBlocking(List<LimitSpec> specs, Decision refused,
            Supplier<CompletionStage<Decision>> attempt) {
        Duration maxWait = maxWait(specs, refused);
        if (maxWait == null || !fits(refused, System.nanoTime() + maxWait.toNanos())) {
            return CompletableFuture.completedFuture(refused);
        }
        CompletableFuture<Decision> result = new CompletableFuture<>();
        after(refused, result, System.nanoTime() + maxWait.toNanos(), attempt);
        return result;
    }

    private static void after(Decision refused, CompletableFuture<Decision> result, long deadline,
            Supplier<CompletionStage<Decision>> attempt) {
        Executor later = CompletableFuture.delayedExecutor(wait(refused), TimeUnit.NANOSECONDS, Runnable::run);
        later.execute(() -> {
            if (result.isDone()) {
                return;
            }
            CompletionStage<Decision> next;
            try {
                next = attempt.get();
            }
            catch (RuntimeException ex) {
                result.completeExceptionally(ex);
                return;
            }
            next.whenComplete((decision, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(failure);
                }
                else if (decision.allowed() || !fits(decision, deadline)) {
                    result.complete(decision);
                }
                else {
                    after(decision, result, deadline, attempt);
                }
            });
        });
    }

    /** Whether waiting as long as the refusal says ends by the deadline. */
    private static boolean fits(Decision refused, long deadline) {
        return refused.outcome() != Decision.Outcome.ERROR && System.nanoTime() + wait(refused) <= deadline;
    }

    /** The nanoseconds to wait: what the refusal says, at least a millisecond. */
    private static long wait(Decision refused) {
        return Math.max(refused.retryAfter().toNanos(), MINIMUM_WAIT);
    }

}
