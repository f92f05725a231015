package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Subscribes a limiter to the messages by which instances tell each other to forget a locally
 * refused key after an unban or a reset. It subscribes in the background, retrying until Redis is
 * reachable, so an application starts while Redis is down; until then, local entries end after
 * their longest time anyway.
 *
 * <p>Internal API; it may change in any release.
 */
public final class LocalRefusalsSubscription implements AutoCloseable {

    private static final Log logger = LogFactory.getLog(LocalRefusalsSubscription.class);

    private static final Duration RETRY = Duration.ofSeconds(5);

    private final @Nullable RedisMessageListenerContainer container;

    private final @Nullable Thread subscriber;

    private volatile boolean closed;

    /**
     * Starts subscribing.
     * @param connectionFactory the connection to subscribe on
     * @param limiter the limiter whose local refusals the messages clear
     */
    public LocalRefusalsSubscription(RedisConnectionFactory connectionFactory, RedisRateLimiter limiter) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(connectionFactory);
        container.addMessageListener(
                (message, pattern) -> limiter.forgetLocally(new String(message.getBody(), StandardCharsets.UTF_8)),
                new ChannelTopic(limiter.invalidationChannel()));
        container.afterPropertiesSet();
        this.container = container;
        this.subscriber = new Thread(this::subscribe, "limiter-local-refusals");
        this.subscriber.setDaemon(true);
        this.subscriber.start();
    }

    private LocalRefusalsSubscription() {
        this.container = null;
        this.subscriber = null;
    }

    /**
     * Returns a subscription that does nothing, where there is no Redis-backed limiter.
     * @return the subscription
     */
    public static LocalRefusalsSubscription none() {
        return new LocalRefusalsSubscription();
    }

    private void subscribe() {
        while (!this.closed && this.container != null) {
            try {
                this.container.start();
                return;
            }
            catch (RuntimeException ex) {
                logger.debug("Cannot subscribe to local refusal invalidations yet: " + ex.getMessage());
                try {
                    Thread.sleep(RETRY.toMillis());
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Returns whether the subscription is listening.
     * @return {@code true} once subscribed
     */
    public boolean isListening() {
        return this.container != null && this.container.isListening();
    }

    @Override
    public void close() {
        this.closed = true;
        if (this.subscriber != null) {
            this.subscriber.interrupt();
        }
        if (this.container != null) {
            try {
                this.container.destroy();
            }
            catch (Exception ex) {
                throw new IllegalStateException("Could not close the local refusals subscription", ex);
            }
        }
    }

}
