package io.github.limiter.internal.refusals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The listener container of the limiter's invalidation subscription. It does not recover a lost or
 * refused subscription itself: it gives the subscription up, and {@code whenAborted} starts it
 * again on the limiter's back-off, which logs each kind of failure once. The container's own ERROR
 * line, with a stack trace, for every failed attempt is left out: a Redis user refused the channel
 * would otherwise write one several times a second, for as long as the application runs. A blocking
 * client (Jedis) loses its subscription this way; Lettuce restores its own.
 *
 * <p>It subscribes only once the limiter's connection is open: a start asked for before waits for
 * {@link #connectionOpened()}, which asks for it again through {@code whenReady}. So a Redis that
 * cannot be reached at start-up is reported once, by the start-up line, and the subscription does
 * not hold the connection factory's lock for a connect timeout while the limiter's own connection
 * opens.
 */
final class InvalidationListenerContainer extends RedisMessageListenerContainer {

    // true on the thread that hands a failure to the container, which then logs nothing
    private final ThreadLocal<Boolean> quiet = new ThreadLocal<>();

    private final AtomicBoolean postponed = new AtomicBoolean();

    private volatile Consumer<Throwable> whenAborted = (cause) -> {
    };

    private volatile Runnable whenReady = () -> {
    };

    private volatile BooleanSupplier connected = () -> true;

    InvalidationListenerContainer() {
        setRecoveryBackoff(new FixedBackOff(0, 0));
    }

    /** The limiter's subscription starts it, in the background, and again until it subscribes. */
    @Override
    public boolean isAutoStartup() {
        return false;
    }

    /** What to do when the subscription fails or is lost: start again, on the back-off. */
    void whenAborted(Consumer<Throwable> whenAborted) {
        this.whenAborted = whenAborted;
    }

    /** What to do when a start that waited for the connection may go on: start again, now. */
    void whenReady(Runnable whenReady) {
        this.whenReady = whenReady;
    }

    /** Starts only while {@code connected} holds; see {@link #connectionOpened()}. */
    void startWhen(BooleanSupplier connected) {
        this.connected = connected;
    }

    @Override
    public void start() {
        if (!this.connected.getAsBoolean()) {
            this.postponed.set(true);
            // opened meanwhile: one of this start and connectionOpened() takes the postponed start
            if (!this.connected.getAsBoolean() || !this.postponed.compareAndSet(true, false)) {
                return;
            }
        }
        super.start();
    }

    /** The limiter's connection opened: a start that waited for it is asked for again. */
    void connectionOpened() {
        if (this.postponed.compareAndSet(true, false)) {
            this.whenReady.run();
        }
    }

    /**
     * The container logs a failed subscription at ERROR only while it reports itself running, and
     * still closes the connection and fails the subscription's future when it does not.
     */
    @Override
    public boolean isRunning() {
        return this.quiet.get() == null && super.isRunning();
    }

    @Override
    protected void handleSubscriptionException(CompletableFuture<Void> future, BackOffExecution backOffExecution,
            Throwable cause) {
        boolean running = isRunning();
        this.quiet.set(Boolean.TRUE);
        try {
            super.handleSubscriptionException(future, backOffExecution, cause);
        }
        finally {
            this.quiet.remove();
        }
        if (running) {
            this.whenAborted.accept(cause);
        }
    }

}
