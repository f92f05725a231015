package io.github.limiter.charts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.Limit;
import io.github.limiter.RateLimiter;

/**
 * One client's requests over three seconds against a limit of 10 per second: a single request
 * that opens the window, a burst that straddles the window's edge at 1 s, then a steady 20 a
 * second, twice the limit.
 */
final class BurstTrace {

    static final Duration WINDOW = Duration.ofSeconds(1);

    static final int MAX = 10;

    static final long LENGTH_MS = 3000;

    /** Request times, in milliseconds from the start. */
    static List<Long> requestTimes() {
        List<Long> times = new ArrayList<>();
        times.add(0L);
        for (long t = 800; t < 1200; t += 10) {
            times.add(t);
        }
        for (long t = 1200; t < LENGTH_MS; t += 50) {
            times.add(t);
        }
        return times;
    }

    /** A request as it was decided: when, relative to the start, and whether it was allowed. */
    record Call(long atMs, boolean allowed) {
    }

    /**
     * Plays the trace against one limit from {@code startNanos} (a {@link System#nanoTime()}
     * instant), on the calling thread.
     */
    static List<Call> play(RateLimiter limiter, String limitId, Limit limit, long startNanos) {
        List<Call> calls = new ArrayList<>();
        for (long at : requestTimes()) {
            long due = startNanos + at * 1_000_000;
            while (System.nanoTime() < due) {
                LockSupport.parkNanos(Math.max(due - System.nanoTime() - 200_000, 1));
            }
            boolean allowed = limiter.tryAcquire(limitId, "client", limit).allowed();
            calls.add(new Call((System.nanoTime() - startNanos) / 1_000_000, allowed));
        }
        return calls;
    }

    /** The most allowed calls whose times fall within one window length. */
    static int mostInAnyWindow(List<Call> calls) {
        List<Long> allowed = calls.stream().filter(Call::allowed).map(Call::atMs).toList();
        int most = 0;
        int from = 0;
        for (int to = 0; to < allowed.size(); to++) {
            while (allowed.get(to) - allowed.get(from) >= WINDOW.toMillis()) {
                from++;
            }
            most = Math.max(most, to - from + 1);
        }
        return most;
    }

    private BurstTrace() {
    }

}
