package io.github.limiter.autoconfigure;

import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The listener container of the limiter's invalidation subscription. It does not recover a lost
 * subscription itself (its recovery would log an ERROR with a stack trace on every attempt): it
 * gives the subscription up, and {@code whenAborted} starts it again on the limiter's back-off. A
 * blocking client (Jedis) loses its subscription this way; Lettuce restores its own.
 */
final class InvalidationListenerContainer extends RedisMessageListenerContainer {

    private volatile Runnable whenAborted = () -> {
    };

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

    @Override
    protected void handleSubscriptionException(CompletableFuture<Void> future, BackOffExecution backOffExecution,
            Throwable cause) {
        super.handleSubscriptionException(future, backOffExecution, cause);
        if (isRunning()) {
            this.whenAborted.run();
        }
    }

}
