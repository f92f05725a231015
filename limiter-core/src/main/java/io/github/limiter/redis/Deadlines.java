package io.github.limiter.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;

/**
 * One timer, with one daemon thread, for every limiter's decision deadlines over Lettuce; 10 ms
 * ticks. A hashed wheel, as Lettuce's own command timeouts: neither scheduling nor cancelling takes
 * a lock, so an event-loop thread that sends or completes a decision never blocks.
 */
final class Deadlines {

    /** The timer's tick: how late a task may run after it is due. */
    static final long TICK_MILLIS = 10;

    static final HashedWheelTimer WHEEL = new HashedWheelTimer(task -> {
        Thread thread = new Thread(task, "limiter-decision-deadlines");
        thread.setDaemon(true);
        return thread;
    }, TICK_MILLIS, TimeUnit.MILLISECONDS);

    private Deadlines() {
    }

    /** Starts the timer's thread now, on the calling thread: starting waits for it. */
    static void start() {
        WHEEL.start();
    }

    /** Fails the future with the given failure once {@code nanos} have passed, unless it is done by then. */
    static Timeout fail(CompletableFuture<?> future, long nanos, Supplier<? extends Throwable> failure) {
        return WHEEL.newTimeout(timeout -> future.completeExceptionally(failure.get()), Math.max(nanos, 0),
                TimeUnit.NANOSECONDS);
    }

}
