package io.github.limiter.redis;

import io.github.limiter.internal.transport.Deadlines;
import io.github.limiter.internal.transport.LettuceScriptRunner;
import io.github.limiter.internal.transport.ScriptRunner;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.lettuce.core.cluster.SlotHash;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Gathers decisions that wait for the same connection into one script run (group commit): a call
 * is sent at once while no run of its group is in flight; otherwise it waits, with the others that
 * arrive, until that run returns or the next timer tick ({@link Deadlines#TICK_MILLIS}), and they
 * go as one run ({@link DecisionScript#BATCH}, or {@link DecisionScript#FIXED_WINDOW_FAST_BATCH}
 * when every call takes the fast path). On Redis Cluster a group is a hash slot.
 *
 * <p>No call waits longer than the limiter's timeout; one sent and answered after it is handed its
 * reply as late ({@link DecisionArguments#repliedLate}). At most a timeout's worth of ticks of runs is
 * in flight per group, so a stalled Redis gets one run per tick, not one per call. Neither sending
 * nor completing takes a lock. docs/how-it-works.md ("Coalesced decisions") has the whole story.
 */
final class CoalescingScriptRunner implements ScriptRunner<DecisionArguments> {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(Deadlines.TICK_MILLIS);

    private final LettuceScriptRunner sender;

    private final int maxBatch;

    private final boolean bySlot;

    private final long timeoutNanos;

    private final Duration timeout;

    private final Deadlines deadlines;

    private final Group single = new Group();

    private final ConcurrentMap<Integer, Group> slots = new ConcurrentHashMap<>();

    private final LongAdder runs = new LongAdder();

    private final LongAdder coalesced = new LongAdder();

    private final int maxInFlight;

    /**
     * Creates a runner.
     * @param sender sends the runs
     * @param maxBatch the most calls in one run, at least 2
     * @param bySlot whether calls are grouped by hash slot (Redis Cluster)
     * @param timeout the longest a call may wait, from when it is made: the command timeout
     */
    CoalescingScriptRunner(LettuceScriptRunner sender, int maxBatch, boolean bySlot, Duration timeout) {
        if (maxBatch < 2) {
            throw new IllegalArgumentException("maxBatch must be at least 2, not " + maxBatch);
        }
        this.sender = sender;
        this.maxBatch = maxBatch;
        this.bySlot = bySlot;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
        // a run per tick while none returns, for as long as a call waits at most
        this.maxInFlight = (int) Math.min(Math.max(2, this.timeoutNanos / TICK_NANOS + 2), 1000);
        this.deadlines = sender.deadlines();
    }

    @Override
    public CompletableFuture<List<Long>> run(DecisionArguments call) {
        if (this.deadlines.closed()) {
            return CompletableFuture.failedFuture(Deadlines.closedFailure());
        }
        PendingCall pending = new PendingCall(call, new CompletableFuture<>(), System.nanoTime() + this.timeoutNanos);
        Group group = group(call);
        boolean waits;
        Watch watch = null;
        synchronized (group) {
            waits = group.inFlight > 0;
            if (waits) {
                group.waiting.add(pending);
                watch = group.watch();
                // at the next tick, what waits then goes, whether the runs in flight returned or not
                gatherSoon(group);
            }
            else {
                group.inFlight = 1;
            }
        }
        if (!waits) {
            send(group, List.of(pending));
        }
        else if (watch != null) {
            // a run whose callers all timed out may still be in flight, its watch resting: wake it for
            // this call (a watch still to come, or one just stopped, is followed by one that sees it)
            watch.armFor(pending.deadline());
        }
        return pending.result();
    }

    private Group group(DecisionArguments call) {
        if (!this.bySlot) {
            return this.single;
        }
        return this.slots.computeIfAbsent(SlotHash.getSlot(call.keysAndArgs()[0]), slot -> new Group());
    }

    /** The script calls sent so far, alone or coalesced. */
    long runs() {
        return this.runs.sum();
    }

    /** The decisions sent so far in coalesced script calls (of two or more). */
    long coalesced() {
        return this.coalesced.sum();
    }

    // never throws: whatever fails, every call of the run gets an outcome and the group moves on
    private void send(Group group, List<PendingCall> run) {
        this.runs.increment();
        Watch watch = new Watch(group, run);
        synchronized (group) {
            group.live.add(watch);
        }
        if (this.deadlines.closed()) {
            // the limiter is closed: nothing more goes to Redis, and those that wait fail now
            run.forEach(pending -> pending.result().completeExceptionally(Deadlines.closedFailure()));
            sendNext(group, watch);
            return;
        }
        try {
            // a run of one is the call's own script (the fast path or the general one), as uncoalesced
            RedisScript<List<Long>> script = (run.size() == 1) ? run.get(0).call().script() : CoalescedRuns.script(run);
            if (run.size() > 1) {
                this.coalesced.add(run.size());
            }
            this.sender.send(script, CoalescedRuns.keys(run), CoalescedRuns.args(run)).whenComplete((reply, failure) -> {
                try {
                    watch.stop();
                    // Redis gets the next run before this one's callers go on
                    sendNext(group, watch);
                }
                finally {
                    if (failure != null) {
                        Throwable cause = DecisionEngine.unwrap(failure);
                        run.forEach(pending -> {
                            if (!pending.result().completeExceptionally(cause)) {
                                pending.call().unansweredLate(cause);
                            }
                        });
                    }
                    else {
                        CoalescedRuns.distribute(run, reply);
                    }
                }
            });
            watch.at(run.get(0).deadline());
        }
        catch (Throwable ex) {
            // the command could not even be written (such as an error thrown while looking the
            // connection up): this run fails, and the next goes
            watch.stop();
            run.forEach(pending -> pending.result().completeExceptionally(ex));
            sendNext(group, watch);
        }
    }

    /** After a run returned (or failed): the next of those waiting goes in its place. */
    private void sendNext(Group group, Watch returned) {
        List<PendingCall> run;
        synchronized (group) {
            group.live.remove(returned);
            if (group.waiting.isEmpty()) {
                group.inFlight--;
                return;
            }
            run = take(group);
            if (!group.waiting.isEmpty()) {
                gatherSoon(group);
            }
        }
        send(group, run);
    }

    /** Schedules {@link #gather} for the next tick, unless it is or too many runs are in flight; holding the lock. */
    private void gatherSoon(Group group) {
        if (group.gather == null && group.inFlight < this.maxInFlight) {
            group.gather = this.deadlines.schedule(timeout -> gather(group), 0);
        }
    }

    /**
     * At the tick after a call came to wait: those waiting go now, in runs of their own beside the
     * ones in flight (pipelined on the connection), so that none waits for a slow reply before it
     * is even sent; with Redis near, a run has returned and sent them before the tick.
     */
    private void gather(Group group) {
        while (true) {
            List<PendingCall> run;
            synchronized (group) {
                group.gather = null;
                if (group.waiting.isEmpty() || group.inFlight >= this.maxInFlight) {
                    return;
                }
                run = take(group);
                group.inFlight++;
            }
            send(group, run);
        }
    }

    /** The oldest waiting calls, at most a run's worth; called holding the group's lock. */
    private List<PendingCall> take(Group group) {
        int size = Math.min(group.waiting.size(), this.maxBatch);
        List<PendingCall> run = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            run.add(group.waiting.poll());
        }
        return run;
    }

    private QueryTimeoutException timedOut() {
        return ScriptRunner.timedOut(this.timeout);
    }

    /**
     * Watches a run in flight: at the earliest deadline of its calls and of those waiting behind it
     * (the oldest first, since they wait in order), fails the calls past theirs, then looks again
     * at the next deadline, until the run returns. Once every call it watched has failed, it rests
     * until a call comes to wait behind the run ({@link #armFor}): the run may stay in flight for
     * its late reply long after.
     */
    private final class Watch implements TimerTask {

        private final Group group;

        private final List<PendingCall> run;

        private boolean stopped;

        private @Nullable Timeout next;

        // whether a look is scheduled: a call that comes to wait need not schedule one then, since
        // the calls before it have earlier deadlines (read without the lock by each such call)
        private volatile boolean armed;

        Watch(Group group, List<PendingCall> run) {
            this.group = group;
            this.run = run;
        }

        synchronized void at(long deadline) {
            if (!this.stopped) {
                this.armed = true;
                this.next = CoalescingScriptRunner.this.deadlines.schedule(this, deadline - System.nanoTime());
            }
        }

        /** Schedules a look at the deadline of a call that came to wait, unless one is scheduled. */
        void armFor(long deadline) {
            if (!this.armed) {
                synchronized (this) {
                    if (!this.armed) {
                        at(deadline);
                    }
                }
            }
        }

        synchronized void stop() {
            this.stopped = true;
            if (this.next != null) {
                this.next.cancel();
            }
        }

        @Override
        public void run(Timeout timeout) {
            synchronized (this) {
                if (this.stopped) {
                    return;
                }
                this.armed = false;
            }
            if (CoalescingScriptRunner.this.deadlines.closed()) {
                failAll();
                return;
            }
            long now = System.nanoTime();
            long next = Long.MAX_VALUE;
            for (PendingCall pending : this.run) {
                if (pending.result().isDone()) {
                    continue;
                }
                if (pending.deadline() - now <= 0) {
                    pending.result().completeExceptionally(timedOut());
                }
                else {
                    next = Math.min(next, pending.deadline());
                }
            }
            List<PendingCall> expired = new ArrayList<>();
            synchronized (this.group) {
                PendingCall oldest = this.group.waiting.peek();
                while (oldest != null && oldest.deadline() - now <= 0) {
                    expired.add(this.group.waiting.poll());
                    oldest = this.group.waiting.peek();
                }
                if (oldest != null) {
                    next = Math.min(next, oldest.deadline());
                }
            }
            expired.forEach(pending -> pending.result().completeExceptionally(timedOut()));
            if (next != Long.MAX_VALUE) {
                at(next);
            }
        }

        /** The limiter is closed: the run's calls, and those that wait behind it, fail now. */
        private void failAll() {
            List<PendingCall> waiting;
            synchronized (this.group) {
                waiting = new ArrayList<>(this.group.waiting);
                this.group.waiting.clear();
            }
            this.run.forEach(pending -> pending.result().completeExceptionally(Deadlines.closedFailure()));
            waiting.forEach(pending -> pending.result().completeExceptionally(Deadlines.closedFailure()));
        }

    }

    /** The calls waiting for one connection or slot, and the runs of theirs in flight. */
    private static final class Group {

        private final ArrayDeque<PendingCall> waiting = new ArrayDeque<>();

        private int inFlight;

        // the watches of the runs in flight, the latest last
        private final List<Watch> live = new ArrayList<>(2);

        // the early send of those waiting, at the next tick
        private @Nullable Timeout gather;

        /** The watch a call that comes to wait wakes: the latest run's. */
        @Nullable Watch watch() {
            return this.live.isEmpty() ? null : this.live.get(this.live.size() - 1);
        }

    }

}
