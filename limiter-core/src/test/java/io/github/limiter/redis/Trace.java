package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Calls that a limiter allowed, each bracketed by the clock just before and just after the call.
 * Redis runs on this machine and reads the same clock, so the Redis time a call was decided at lies
 * within its bracket: a property checked on brackets holds for the Redis times too, and a check
 * cannot fail because of scheduling jitter.
 */
final class Trace {

    private final List<long[]> allowed = new ArrayList<>();

    private int calls;

    static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    /** Makes one call and records it if it was allowed. */
    boolean call(BooleanSupplier decision) {
        long before = nowMicros();
        boolean ok = decision.getAsBoolean();
        long after = nowMicros();
        this.calls++;
        if (ok) {
            this.allowed.add(new long[] { before, after });
        }
        return ok;
    }

    int calls() {
        return this.calls;
    }

    int allowed() {
        return this.allowed.size();
    }

    /**
     * Returns the most allowed calls that certainly fall within some interval of the given length:
     * calls i..j with {@code after(j) - before(i) < length}.
     */
    int mostWithin(Duration length) {
        return mostWithin(length, Long.MIN_VALUE);
    }

    /** As {@link #mostWithin(Duration)}, counting only calls that started at or after {@code fromMicros}. */
    int mostWithin(Duration length, long fromMicros) {
        long lengthMicros = length.toNanos() / 1_000;
        List<long[]> calls = this.allowed.stream().filter(c -> c[0] >= fromMicros).toList();
        int most = 0;
        int j = 0;
        for (int i = 0; i < calls.size(); i++) {
            j = Math.max(j, i);
            while (j + 1 < calls.size() && calls.get(j + 1)[1] - calls.get(i)[0] < lengthMicros) {
                j++;
            }
            if (calls.get(j)[1] - calls.get(i)[0] < lengthMicros) {
                most = Math.max(most, j - i + 1);
            }
        }
        return most;
    }

    /** Waits, spinning on the clock, until {@code micros}. */
    static void until(long micros) {
        while (nowMicros() < micros) {
            Thread.onSpinWait();
        }
    }

}
