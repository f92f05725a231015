package io.github.limiter.autoconfigure;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The listener container of the limiter's invalidation subscription. It does not recover a lost
 * subscription itself (its recovery would log an ERROR with a stack trace on every attempt): it
 * gives the subscription up, and {@code whenAborted} starts it again on the limiter's back-off. A
 * blocking client (Jedis) loses its subscription this way; Lettuce restores its own.
 *
 * <p>It subscribes only once the limiter's connection is open: a start asked for before waits for
 * {@link #connectionOpened()}, which asks for it again through {@code whenAborted}. So a Redis
 * that cannot be reached at start-up is reported once, by the start-up line, and the subscription
 * does not hold the connection factory's lock for a connect timeout while the limiter's own
 * connection opens.
 */
final class InvalidationListenerContainer extends RedisMessageListenerContainer {

    private volatile Runnable whenAborted = () -> {
    };

    private volatile BooleanSupplier connected = () -> true;

    private final AtomicBoolean postponed = new AtomicBoolean();

    InvalidationListenerContainer() {
        setRecoveryBackoff(new FixedBackOff(0, 0));
    }

    /** The limiter's subscription starts it, in the background, and again until it subscribes. */
    @Override
    public boolean isAutoStartup() {
        return false;
    }

    void whenAborted(Runnable whenAborted) {
        this.whenAborted = whenAborted;
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
            this.whenAborted.run();
        }
    }

    @Override
    protected void handleSubscriptionException(CompletableFuture<Void> future, BackOffExecution backOffExecution,
            Throwable cause) {
        super.handleSubscriptionException(future, backOffExecution, cause);
        if (isRunning()) {
            this.whenAborted.run();
        }
    }

}
