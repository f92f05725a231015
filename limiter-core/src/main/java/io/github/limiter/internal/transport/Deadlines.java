package io.github.limiter.internal.transport;

import io.github.limiter.redis.RedisRateLimiter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * A limiter's timer for its decision deadlines over Lettuce, with one daemon thread and 10 ms ticks,
 * stopped when the limiter is closed ({@link RedisRateLimiter#close()}, which Spring calls when the
 * application context closes). A hashed wheel, as Lettuce's own command timeouts: neither
 * scheduling nor cancelling takes a lock, so an event-loop thread that sends or completes a
 * decision never blocks. Lettuce's own timer ticks every 100 ms unless the application set it up
 * otherwise: too coarse for a deadline of 100 ms, or for gathering a coalesced run.
 */
public final class Deadlines implements AutoCloseable {

    /** The timer's tick: how late a task may run after it is due. */
    public static final long TICK_MILLIS = 10;

    private static final Log logger = LogFactory.getLog(Deadlines.class);

    private final HashedWheelTimer wheel;

    private volatile boolean closed;

    /** Starts the timer's thread now, on the calling thread (the one that builds the limiter): starting waits for it. */
    public Deadlines() {
        this.wheel = new HashedWheelTimer(task -> {
            Thread thread = new Thread(task, "limiter-decision-deadlines");
            thread.setDaemon(true);
            return thread;
        }, TICK_MILLIS, TimeUnit.MILLISECONDS);
        this.wheel.start();
    }

    /**
     * Fails the future with the given failure once {@code nanos} have passed, unless it is done by
     * then; with {@link #closedFailure()} once the timer is closed.
     */
    Timeout fail(CompletableFuture<?> future, long nanos, Supplier<? extends Throwable> failure) {
        return schedule(timeout -> future.completeExceptionally(this.closed ? closedFailure() : failure.get()), nanos);
    }

    /**
     * Runs the task once {@code nanos} have passed, at the next tick at the earliest; at once, on the
     * calling thread, once the timer is closed.
     */
    public Timeout schedule(TimerTask task, long nanos) {
        if (!this.closed) {
            try {
                return this.wheel.newTimeout(task, Math.max(nanos, 0), TimeUnit.NANOSECONDS);
            }
            catch (IllegalStateException ex) {
                // stopped since: as once closed
            }
        }
        Timeout now = new RunNow(task);
        runNow(now);
        return now;
    }

    /** Whether the timer is closed: a decision that would wait for it fails instead. */
    public boolean closed() {
        return this.closed;
    }

    /** What a decision that waits once the limiter is closed fails with: it follows its on-failure setting. */
    public static DataAccessResourceFailureException closedFailure() {
        return new DataAccessResourceFailureException("The rate limiter is closed: Redis did not decide");
    }

    /**
     * Stops the timer: what it still held runs now, so that a call that waits for a deadline fails
     * at once rather than never.
     */
    @Override
    public void close() {
        this.closed = true;
        this.wheel.stop().forEach(Deadlines::runNow);
    }

    private static void runNow(Timeout timeout) {
        try {
            timeout.task().run(timeout);
        }
        catch (Exception ex) {
            logger.debug("A decision's timer task failed as the timer stopped", ex);
        }
    }

    /** A task run at once, its timer closed. */
    private record RunNow(TimerTask task) implements Timeout {

        @Override
        public Timer timer() {
            throw new UnsupportedOperationException("Run at once, on no timer");
        }

        @Override
        public boolean isExpired() {
            return true;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean cancel() {
            return false;
        }

    }

}
