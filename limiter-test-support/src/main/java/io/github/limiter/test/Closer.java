package io.github.limiter.test;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes what a test made, the latest first, when the test ends: held in a field marked
 * {@code @AutoClose}, it closes the limiters a test makes in its body, as JUnit closes those held in
 * fields of their own.
 */
public final class Closer implements AutoCloseable {

    private final Deque<AutoCloseable> closing = new ArrayDeque<>();

    /**
     * Closes the given object when this closer is closed.
     * @param <T> its type
     * @param closeable what to close
     * @return {@code closeable}
     */
    public synchronized <T extends AutoCloseable> T add(T closeable) {
        this.closing.push(closeable);
        return closeable;
    }

    @Override
    public synchronized void close() throws Exception {
        Exception failure = null;
        while (!this.closing.isEmpty()) {
            try {
                this.closing.pop().close();
            }
            catch (Exception ex) {
                if (failure == null) {
                    failure = ex;
                }
                else {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

}
