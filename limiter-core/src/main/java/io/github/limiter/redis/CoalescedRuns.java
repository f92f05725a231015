package io.github.limiter.redis;

import io.github.limiter.internal.transport.LettuceScriptRunner;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * A coalesced run of decision calls, as {@link CoalescingScriptRunner} sends it: the script it
 * runs, its keys and arguments (each call's, one after the other), and each call's part of the
 * reply.
 */
final class CoalescedRuns {

    private CoalescedRuns() {
    }

    /** The fast path's coalesced script for a run of the fast path's calls only; the general one otherwise. */
    static RedisScript<List<Long>> script(List<PendingCall> run) {
        for (PendingCall pending : run) {
            if (!pending.call().fast()) {
                return DecisionScript.BATCH;
            }
        }
        return DecisionScript.FIXED_WINDOW_FAST_BATCH;
    }

    static byte[][] keys(List<PendingCall> run) {
        int count = 0;
        for (PendingCall pending : run) {
            count += pending.call().numKeys();
        }
        byte[][] keys = new byte[count][];
        int at = 0;
        for (PendingCall pending : run) {
            System.arraycopy(pending.call().keysAndArgs(), 0, keys, at, pending.call().numKeys());
            at += pending.call().numKeys();
        }
        return keys;
    }

    static byte[][] args(List<PendingCall> run) {
        int count = 0;
        for (PendingCall pending : run) {
            count += pending.call().keysAndArgs().length - pending.call().numKeys();
        }
        byte[][] args = new byte[count][];
        int at = 0;
        for (PendingCall pending : run) {
            byte[][] keysAndArgs = pending.call().keysAndArgs();
            int length = keysAndArgs.length - pending.call().numKeys();
            System.arraycopy(keysAndArgs, pending.call().numKeys(), args, at, length);
            at += length;
        }
        return args;
    }

    /** Hands each call its part of the run's reply, or its own failure; a late call, its reply as late. */
    static void distribute(List<PendingCall> run, @Nullable List<?> reply) {
        int expected = 0;
        for (PendingCall pending : run) {
            expected += pending.call().replySize();
        }
        if (reply == null || reply.size() != expected) {
            IllegalStateException unexpected = new IllegalStateException(
                    "Unexpected reply from the limiter script: " + reply);
            run.forEach(pending -> pending.result().completeExceptionally(unexpected));
            return;
        }
        int at = 0;
        for (PendingCall pending : run) {
            int size = pending.call().replySize();
            List<?> part = reply.subList(at, at + size);
            at += size;
            Object first = part.get(0);
            if (first instanceof byte[] error) {
                String message = new String(error, StandardCharsets.UTF_8);
                pending.result().completeExceptionally(
                        LettuceScriptRunner.translate(new RedisCommandExecutionException(message)));
                continue;
            }
            List<Long> numbers;
            try {
                numbers = pending.call().read(part);
            }
            catch (IllegalStateException ex) {
                pending.result().completeExceptionally(ex);
                continue;
            }
            if (!pending.result().complete(numbers)) {
                // its caller stopped waiting: the decision stands, and is reported as late
                pending.call().repliedLate(numbers);
            }
        }
    }

}
