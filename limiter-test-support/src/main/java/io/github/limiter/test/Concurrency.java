package io.github.limiter.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the same work on many threads at once, for tests of behaviour under concurrency.
 */
public final class Concurrency {

    private Concurrency() {
    }

    /**
     * Makes {@code calls} calls on each of {@code threads} threads at once, and counts those that
     * were not refused.
     * @param threads how many threads
     * @param calls how many calls each thread makes
     * @param call one call
     * @param refusal the exception a refused call throws; any other fails the run
     * @return how many calls went through
     */
    public static int countPassing(int threads, int calls, Runnable call, Class<? extends RuntimeException> refusal) {
        AtomicInteger passed = new AtomicInteger();
        run(threads, () -> {
            for (int i = 0; i < calls; i++) {
                try {
                    call.run();
                    passed.incrementAndGet();
                }
                catch (RuntimeException ex) {
                    if (!refusal.isInstance(ex)) {
                        throw ex;
                    }
                }
            }
        });
        return passed.get();
    }

    /**
     * Starts {@code threads} threads together on {@code work} and waits for all of them, a minute
     * at most.
     * @param threads how many threads
     * @param work what each thread does
     * @throws IllegalStateException if a thread failed or the work did not finish in time
     */
    public static void run(int threads, Runnable work) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    work.run();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        }
        catch (ExecutionException ex) {
            throw new IllegalStateException("A thread failed", ex.getCause());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        catch (TimeoutException ex) {
            throw new IllegalStateException("The threads did not finish within a minute", ex);
        }
        finally {
            pool.shutdownNow();
        }
    }

}
