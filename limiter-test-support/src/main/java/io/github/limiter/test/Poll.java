package io.github.limiter.test;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A bounded poll for what Redis does in the background (a replica syncing, nodes gossiping, a
 * sentinel discovering), which no command can wait for.
 */
final class Poll {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final Duration INTERVAL = Duration.ofMillis(100);

    private Poll() {
    }

    /**
     * Checks {@code condition} a few times a second until it holds, for 30 seconds at most. A check
     * that throws counts as not yet: a server that is still starting refuses connections.
     * @param condition the condition
     * @param what what is awaited, for the error
     * @throws IllegalStateException if the condition did not hold in time
     */
    static void until(BooleanSupplier condition, String what) {
        until(condition, what, TIMEOUT);
    }

    /**
     * Checks {@code condition} a few times a second until it holds, for {@code timeout} at most.
     * @param condition the condition
     * @param what what is awaited, for the error
     * @param timeout how long to wait at most
     * @throws IllegalStateException if the condition did not hold in time
     */
    static void until(BooleanSupplier condition, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            }
            catch (RuntimeException ex) {
                last = ex;
            }
            LockSupport.parkNanos(INTERVAL.toNanos());
        }
        throw new IllegalStateException("Gave up after " + timeout.toSeconds() + " s waiting for " + what, last);
    }

}
