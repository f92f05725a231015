package io.github.limiter.internal.transport;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;

/**
 * Runs the blocking runner on threads of its own, for client libraries with no asynchronous
 * commands (Jedis): the caller's thread never waits for Redis longer than the limiter's timeout.
 * The threads are daemons that end after a minute idle; the queue is bounded, and a decision that
 * finds it full fails at once, as one that finds Redis unreachable does, and follows its on-failure
 * setting.
 *
 * <p>A caller's future fails at its deadline, the limiter's timeout after the call was made. A call
 * still queued then is not sent. One already sent goes on reading (with Jedis, with the read
 * timeout the blocking runner raises by the late window), and a reply that comes after the deadline
 * is handed to the call as late ({@link ScriptCall#repliedLate}): the script ran, and its alerts
 * and bans are reported. Deadlines run on the JDK's own delayed executor, as
 * {@link CompletableFuture#orTimeout} does.
 */
public final class OffloadedScriptRunner implements ScriptRunner<ScriptCall>, AutoCloseable {

    public static final int THREADS = 8;

    /** The most calls that wait for a thread; one more fails at once. */
    public static final int QUEUE = 10_000;

    private final BlockingScriptRunner blocking;

    private final ThreadPoolExecutor executor;

    // the calls queued for a thread: the queue is bounded by this count, not by a lock
    private final AtomicInteger waiting = new AtomicInteger();

    private final @Nullable Duration timeout;

    /**
     * Creates a runner.
     * @param blocking runs each call, on one of the threads
     * @param threads how many threads: as many as the client has connections
     * @param timeout the longest a caller waits, or {@code null} for as long as the client's own
     * timeout lets the script run
     */
    public OffloadedScriptRunner(BlockingScriptRunner blocking, int threads, @Nullable Duration timeout) {
        this.blocking = blocking;
        this.timeout = timeout;
        AtomicInteger count = new AtomicInteger();
        // a lock-free queue: a caller on an event loop hands its call over without ever parking, as a
        // LinkedBlockingQueue's lock makes it park while a thread takes from it (BlockHound saw it)
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES,
                new LinkedTransferQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "limiter-decide-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        this.executor = executor;
    }

    @Override
    public CompletableFuture<List<Long>> run(ScriptCall call) {
        CompletableFuture<List<Long>> result = new CompletableFuture<>();
        if (this.waiting.incrementAndGet() > QUEUE) {
            this.waiting.decrementAndGet();
            result.completeExceptionally(new RedisSystemException("Too many rate-limit decisions waiting for Redis",
                    new RejectedExecutionException("more than " + QUEUE + " decisions wait for a thread")));
            return result;
        }
        try {
            this.executor.execute(() -> {
                this.waiting.decrementAndGet();
                runFor(call, result);
            });
        }
        catch (RejectedExecutionException ex) {
            this.waiting.decrementAndGet();
            result.completeExceptionally(new RedisSystemException("Too many rate-limit decisions waiting for Redis", ex));
            return result;
        }
        Duration timeout = this.timeout;
        if (timeout != null) {
            CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
                .execute(() -> result.completeExceptionally(ScriptRunner.timedOut(timeout)));
        }
        return result;
    }

    private void runFor(ScriptCall call, CompletableFuture<List<Long>> result) {
        if (result.isDone()) {
            // its caller stopped waiting before a thread was free: never sent, never counted
            return;
        }
        List<Long> reply;
        try {
            reply = this.blocking.runHere(call);
        }
        catch (RuntimeException ex) {
            // a call that failed before it was sent, or on an unexpected reply, lost no decision
            if (!result.completeExceptionally(ex) && call.sent() && !(ex instanceof IllegalStateException)) {
                call.unansweredLate(ex);
            }
            return;
        }
        if (!result.complete(reply)) {
            // its caller stopped waiting: the decision stands, and is reported as late
            call.repliedLate(reply);
        }
    }

    /** Stops the threads once the calls already taken are done; a call made after that fails at once. */
    @Override
    public void close() {
        this.executor.shutdown();
    }

}
