package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.SlotHash;
import org.jspecify.annotations.Nullable;

/**
 * Gathers decisions that wait for the same connection into one script run (group commit). While
 * no run of a group is in flight, a call is sent at once, on its own, as it would be without this
 * runner: a light load waits for nothing. While one is, the calls that arrive wait, and go
 * together, up to a bounded number, as soon as it returns; the next gathered ones go when that
 * returns, and so on. Redis then pays one script call, one read and one write for many decisions.
 *
 * <p>The calls of a run are decided one after the other by {@link DecisionScript#BATCH}, each as
 * if alone. On Redis Cluster, calls are grouped by the hash slot of their keys (every key of one
 * call shares one), so that each run stays in one slot; elsewhere there is one group.
 *
 * <p>Failures: a run that fails (connection lost, timeout) fails each of its calls, and each
 * caller then follows its own on-failure setting; {@code NOSCRIPT} is handled per run, by
 * {@link LettuceScriptRunner}; a call that fails inside the script alone (a key of another type)
 * fails alone.
 */
final class CoalescingScriptRunner implements ScriptRunner {

    private final LettuceScriptRunner sender;

    private final int maxBatch;

    private final boolean bySlot;

    private final Group single = new Group();

    private final ConcurrentMap<Integer, Group> slots = new ConcurrentHashMap<>();

    private final LongAdder runs = new LongAdder();

    private final LongAdder coalesced = new LongAdder();

    /**
     * Creates a runner.
     * @param sender sends the runs
     * @param maxBatch the most calls in one run, at least 2
     * @param bySlot whether calls are grouped by hash slot (Redis Cluster)
     */
    CoalescingScriptRunner(LettuceScriptRunner sender, int maxBatch, boolean bySlot) {
        if (maxBatch < 2) {
            throw new IllegalArgumentException("maxBatch must be at least 2, not " + maxBatch);
        }
        this.sender = sender;
        this.maxBatch = maxBatch;
        this.bySlot = bySlot;
    }

    @Override
    public CompletableFuture<List<Long>> run(DecisionCall call) {
        Pending pending = new Pending(call, new CompletableFuture<>());
        Group group = group(call);
        synchronized (group) {
            if (group.inFlight) {
                group.waiting.add(pending);
                return pending.result;
            }
            group.inFlight = true;
        }
        send(group, List.of(pending));
        return pending.result;
    }

    private Group group(DecisionCall call) {
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

    private void send(Group group, List<Pending> run) {
        this.runs.increment();
        if (run.size() == 1) {
            Pending only = run.get(0);
            this.sender.run(only.call).whenComplete((reply, failure) -> {
                sendNext(group);
                if (failure != null) {
                    only.result.completeExceptionally(DecisionEngine.unwrap(failure));
                }
                else {
                    only.result.complete(reply);
                }
            });
        }
        else {
            this.coalesced.add(run.size());
            this.sender.send(DecisionScript.BATCH, keys(run), args(run)).whenComplete((reply, failure) -> {
                // Redis gets the next run before this one's callers go on
                sendNext(group);
                if (failure != null) {
                    Throwable cause = DecisionEngine.unwrap(failure);
                    run.forEach(pending -> pending.result.completeExceptionally(cause));
                }
                else {
                    distribute(run, reply);
                }
            });
        }
    }

    private void sendNext(Group group) {
        List<Pending> run;
        synchronized (group) {
            if (group.waiting.isEmpty()) {
                group.inFlight = false;
                return;
            }
            int size = Math.min(group.waiting.size(), this.maxBatch);
            run = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                run.add(group.waiting.poll());
            }
        }
        send(group, run);
    }

    private static byte[][] keys(List<Pending> run) {
        int count = 0;
        for (Pending pending : run) {
            count += pending.call.numKeys();
        }
        byte[][] keys = new byte[count][];
        int at = 0;
        for (Pending pending : run) {
            System.arraycopy(pending.call.keysAndArgs(), 0, keys, at, pending.call.numKeys());
            at += pending.call.numKeys();
        }
        return keys;
    }

    private static byte[][] args(List<Pending> run) {
        int count = 0;
        for (Pending pending : run) {
            count += pending.call.keysAndArgs().length - pending.call.numKeys();
        }
        byte[][] args = new byte[count][];
        int at = 0;
        for (Pending pending : run) {
            byte[][] keysAndArgs = pending.call.keysAndArgs();
            int length = keysAndArgs.length - pending.call.numKeys();
            System.arraycopy(keysAndArgs, pending.call.numKeys(), args, at, length);
            at += length;
        }
        return args;
    }

    /** Hands each call its part of the run's reply, or its own failure. */
    private static void distribute(List<Pending> run, @Nullable List<?> reply) {
        int expected = 0;
        for (Pending pending : run) {
            expected += pending.call.replySize();
        }
        if (reply == null || reply.size() != expected) {
            IllegalStateException unexpected = new IllegalStateException(
                    "Unexpected reply from the limiter's coalesced script: " + reply);
            run.forEach(pending -> pending.result.completeExceptionally(unexpected));
            return;
        }
        int at = 0;
        for (Pending pending : run) {
            int size = pending.call.replySize();
            List<?> part = reply.subList(at, at + size);
            at += size;
            Object first = part.get(0);
            if (first instanceof byte[] error) {
                String message = new String(error, StandardCharsets.UTF_8);
                pending.result.completeExceptionally(
                        LettuceScriptRunner.translate(new RedisCommandExecutionException(message)));
                continue;
            }
            try {
                pending.result.complete(ScriptRunner.numbers(part, pending.call));
            }
            catch (IllegalStateException ex) {
                pending.result.completeExceptionally(ex);
            }
        }
    }

    /** The calls waiting for one connection or slot, and whether a run of theirs is in flight. */
    private static final class Group {

        private final ArrayDeque<Pending> waiting = new ArrayDeque<>();

        private boolean inFlight;

    }

    private record Pending(DecisionCall call, CompletableFuture<List<Long>> result) {

    }

}
