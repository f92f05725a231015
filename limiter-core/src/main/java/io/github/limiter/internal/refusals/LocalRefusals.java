package io.github.limiter.internal.refusals;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.redis.RedisRateLimiterBuilder;
import org.jspecify.annotations.Nullable;

/**
 * Remembers, on this application instance, keys that Redis refused until a known instant: banned,
 * or over their limit with a known retry-after. Until then, their calls are refused from memory,
 * without a round trip: an attack on a few keys costs this instance almost nothing and Redis no
 * commands at all.
 *
 * <p>It never changes a decision: Redis would refuse the same call until that instant, since a
 * refused call is not counted and counts only fall with time. (A smaller call may fit sooner, so a
 * call that takes fewer permits than the refused one still asks Redis.) Only admin operations can
 * end a refusal early; {@link RedisRateLimiter#unban} and {@link RedisRateLimiter#reset} clear the
 * entry here and, by a Redis pub/sub message, on every other instance. Entries are trusted at most
 * {@code longest}, in case a message is lost, and there are at most {@code maxEntries} of them.
 * While this instance does not hear those messages, it remembers no new refusal; the refusals it
 * had still end at their instant or after {@code longest}, so that a banned key stays refused while
 * Redis itself is down (nobody can unban it then). Each time it hears them again, it starts empty,
 * since messages may have been missed in between (see {@link #listening(boolean)}).
 *
 * <p>A refusal from memory reports what Redis would: the retry-after and reset of the refusal Redis
 * made, counted down from when it made it, however long the memory itself trusts the entry. A
 * 15-minute ban answers 900 s, then 899 s, and so on, never the time left on the entry.
 * When the memory is full, expired entries are swept out at most once every
 * {@value #SWEEP_EVERY_MILLIS} ms: an attack on more keys than fit costs one scan of the memory
 * per interval, not one per refused call; until the sweep, new refusals are just not remembered.
 *
 * <p>{@link RedisRateLimiterBuilder#localCache} turns it on.
 */
public final class LocalRefusals {

    /** How often, at most, a full memory is swept of expired entries. */
    static final long SWEEP_EVERY_MILLIS = 100;

    private final Map<String, Refusal> refusals = new ConcurrentHashMap<>();

    // Until an instance hears unbans and resets, a new entry could outlive an admin's unban elsewhere.
    private volatile boolean remembering = true;

    private final long sweepEveryNanos;

    // the first sweep may run at once
    private final AtomicLong nextSweepNanos = new AtomicLong(System.nanoTime());

    private final AtomicLong sweeps = new AtomicLong();

    private final int maxEntries;

    private final long longestNanos;

    /**
     * Creates the memory.
     * @param maxEntries the most keys remembered at once
     * @param longest the longest a key is refused from memory before Redis is asked again
     */
    public LocalRefusals(int maxEntries, Duration longest) {
        this(maxEntries, longest, Duration.ofMillis(SWEEP_EVERY_MILLIS));
    }

    public LocalRefusals(int maxEntries, Duration longest, Duration sweepEvery) {
        this.maxEntries = maxEntries;
        this.longestNanos = longest.toNanos();
        this.sweepEveryNanos = sweepEvery.toNanos();
    }

    /** Returns the remembered refusal of this call, or {@code null} to ask Redis. */
    public @Nullable Decision refuse(String stateKey, LimitRequest request) {
        Refusal refusal = this.refusals.get(stateKey);
        if (refusal == null) {
            return null;
        }
        long now = System.nanoTime();
        if (refusal.trustedUntilNanos() - now <= 0) {
            this.refusals.remove(stateKey, refusal);
            return null;
        }
        if (request.cost() < refusal.cost()) {
            return null;
        }
        if (!refusal.limit().equals(request.limit())) {
            // the limit changed since (a policy override): Redis decides under the new one
            this.refusals.remove(stateKey, refusal);
            return null;
        }
        return refusal.decision().seenAgain(left(refusal.retryAtNanos(), now), left(refusal.resetAtNanos(), now));
    }

    private static Duration left(long atNanos, long now) {
        return Duration.ofNanos(Math.max(0, atNanos - now));
    }

    /** Remembers a refusal Redis made on this limit's own account. */
    public void remember(String stateKey, LimitRequest request, Decision decision) {
        boolean refusedByThisLimit = (decision.outcome() == Outcome.BANNED || decision.outcome() == Outcome.REJECTED)
                && !decision.shadow() && !decision.retryAfter().isZero();
        if (!refusedByThisLimit) {
            return;
        }
        if (!this.remembering || (this.refusals.size() >= this.maxEntries && !sweep())) {
            return;
        }
        long now = System.nanoTime();
        long retryAt = now + decision.retryAfter().toNanos();
        long trustedUntil = now + Math.min(decision.retryAfter().toNanos(), this.longestNanos);
        this.refusals.put(stateKey, new Refusal(trustedUntil, retryAt, now + decision.resetAfter().toNanos(), request.cost(),
                request.limit(), decision.seenAgain(decision.retryAfter(), decision.resetAfter())));
    }

    /** Sweeps expired entries out of a full memory, if no sweep ran lately; true if there is room. */
    private boolean sweep() {
        long now = System.nanoTime();
        long next = this.nextSweepNanos.get();
        if (now - next < 0 || !this.nextSweepNanos.compareAndSet(next, now + this.sweepEveryNanos)) {
            return false;
        }
        this.sweeps.incrementAndGet();
        this.refusals.values().removeIf(refusal -> refusal.trustedUntilNanos() - now <= 0);
        return this.refusals.size() < this.maxEntries;
    }

    /** Invalidates a key's remembered refusal, after an unban or a reset here or on another instance. */
    public void invalidate(String stateKey) {
        this.refusals.remove(stateKey);
    }

    /**
     * Says whether unbans and resets from other instances reach this one. While they do not, no new
     * refusal is remembered; once they do again, the memory starts empty.
     */
    public void listening(boolean listening) {
        if (listening) {
            this.refusals.clear();
        }
        this.remembering = listening;
    }

    public boolean remembering() {
        return this.remembering;
    }

    /** How many keys are remembered; for tests and diagnostics. */
    public int size() {
        return this.refusals.size();
    }

    /** How many times a full memory was swept; for tests. */
    long sweeps() {
        return this.sweeps.get();
    }

    /**
     * A remembered refusal: trusted until the first instant, the true retry and reset instants (by
     * this JVM's monotonic clock) as Redis reported them.
     */
    private record Refusal(long trustedUntilNanos, long retryAtNanos, long resetAtNanos, long cost, Limit limit,
            Decision decision) {
    }

}
