package io.github.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.data.redis.RedisSystemException;

/**
 * Runs the blocking runner on threads of its own, for client libraries with no asynchronous
 * commands (Jedis): the caller's thread never waits for Redis. The threads are daemons that end
 * after a minute idle; the queue is bounded, and a decision that finds it full fails at once, as
 * one that finds Redis unreachable does, and follows its on-failure setting.
 */
final class OffloadedScriptRunner implements ScriptRunner {

    static final int THREADS = 8;

    static final int QUEUE = 10_000;

    private final BlockingScriptRunner blocking;

    private final Executor executor;

    OffloadedScriptRunner(BlockingScriptRunner blocking) {
        this.blocking = blocking;
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES,
                new LinkedBlockingQueue<>(QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "limiter-decide-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        this.executor = executor;
    }

    @Override
    public CompletableFuture<List<Long>> run(DecisionCall call) {
        try {
            return CompletableFuture.supplyAsync(() -> this.blocking.runHere(call), this.executor);
        }
        catch (RejectedExecutionException ex) {
            return CompletableFuture.failedFuture(
                    new RedisSystemException("Too many rate-limit decisions waiting for Redis", ex));
        }
    }

}
