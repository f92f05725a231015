package io.github.limiter.internal.refusals;

import io.github.limiter.internal.transport.FailureKind;
import io.github.limiter.redis.RedisPolicyOverrides;
import io.github.limiter.redis.RedisRateLimiterBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ConcurrentTaskScheduler;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Keeps a limiter subscribed to invalidations, the messages by which instances tell each other that
 * a locally refused key was unbanned or reset, for as long as the application runs.
 *
 * <p>A {@link RedisMessageListenerContainer} subscribes, and recovers a subscription whose
 * connection fails, waiting longer each time up to {@link #MAX_RECOVERY_WAIT} (the container
 * logs each failed attempt at ERROR: with Jedis, one per attempt while Redis is down); a client
 * that restores its subscriptions itself (Lettuce) reports a lost connection through
 * {@link #connectionLost()}. This class starts the
 * container once the limiter can use Redis ({@code ready}: it is reachable and the user may use the
 * channel), and starts it again, on the same back-off, only when a start fails in a way the
 * container hands back to its caller rather than recovers (a first connection that cannot be
 * opened, a refused subscription).
 *
 * <p>While it is not subscribed, the limiter remembers no new refusal, so an unban on another
 * instance is not missed; each time it subscribes, the limiter's memory starts empty. Every change
 * of state is logged once, and a failed start once per kind of failure in a streak.
 *
 * <p>The same container hears other channels for other kinds of message
 * ({@link #onMessageOn}), such as the announcements of a change of the policy overrides, each
 * channel with its own action.
 *
 * <p>{@link RedisRateLimiterBuilder#invalidations} makes one, on a container of its own; the
 * limiter starts, stops and closes it.
 */
public final class InvalidationSubscription implements MessageListener, SubscriptionListener {

    private static final Log logger = LogFactory.getLog(InvalidationSubscription.class);

    /**
     * The longest wait between the container's attempts to recover a lost subscription: at most
     * one ERROR line per 10 s from the container while Redis is down, and at most 10 s from
     * Redis's return to hearing other instances again.
     */
    static final Duration MAX_RECOVERY_WAIT = Duration.ofSeconds(10);

    private static final BackOff RECOVERY = recovery();

    private final RedisMessageListenerContainer container;

    // the limiter's memory of refused keys, which the messages clear; null with the local cache off
    private final @Nullable LocalRefusals localRefusals;

    private final String channel;

    // what a refused subscription means, and what to grant
    private final UnaryOperator<String> permissionMessage;

    private final BackOff retry;

    private final TaskScheduler scheduler;

    private final AtomicBoolean subscribed = new AtomicBoolean();

    // failed starts are logged once per kind of failure in a streak, not once per attempt
    private final Set<FailureKind> logged = ConcurrentHashMap.newKeySet();

    // a streak of failed starts waits longer each time, until it subscribes
    private volatile BackOffExecution backOff;

    // and so does a streak of the container's failed recoveries
    private volatile BackOffExecution recovery = RECOVERY.start();

    // the permission the Redis user lacks to subscribe, if that is why it cannot
    private volatile @Nullable String misconfiguration;

    // whether the limiter can use Redis: the container is started only then
    private volatile BooleanSupplier ready = () -> true;

    private volatile boolean running;

    // one start at a time, whichever of the scheduler's threads runs it
    private final Object starts = new Object();

    private final List<Runnable> announcements = new CopyOnWriteArrayList<>();

    /**
     * Creates the subscription on a container of its own, which recovers a lost subscription on
     * {@code retry}; {@link #start()} subscribes.
     * @param connections makes the subscription's connections
     * @param ready whether the limiter can use Redis (its check passed): the container starts only
     * then, and until then the subscription asks again on {@code retry}
     * @param registrationWait how long a subscription may take to be registered
     * @param channel the channel of invalidations, whose messages are state keys
     * @param localRefusals the memory of refused keys the messages clear, or {@code null} for none
     * @param permissionMessage what Redis's refusal of a permission means, and what to grant
     * @param retry how long to wait between this class's attempts to start the container
     * @param executor runs the attempts and the container's recoveries: the application's, which
     * stops it
     * @return the subscription
     */
    public static InvalidationSubscription over(RedisConnectionFactory connections, BooleanSupplier ready,
            Duration registrationWait, String channel, @Nullable LocalRefusals localRefusals,
            UnaryOperator<String> permissionMessage, BackOff retry, ScheduledExecutorService executor) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(connections);
        container.setMaxSubscriptionRegistrationWaitingTime(registrationWait.toMillis());
        // a recovery waits on this executor's timer rather than in a sleeping thread
        container.setSubscriptionExecutor(executor);
        container.setErrorHandler((failure) -> logger.warn("Rate limiting failed to act on a message from "
                + "another instance", failure));
        InvalidationSubscription subscription = new InvalidationSubscription(container, channel, localRefusals,
                permissionMessage, retry, new ConcurrentTaskScheduler(executor));
        subscription.ready = ready;
        container.setRecoveryBackoff(subscription::recoveryBackOff);
        container.afterPropertiesSet();
        return subscription;
    }

    /**
     * Creates the subscription; {@link #start()} subscribes.
     * @param container the container to subscribe with, set up and not started
     * @param channel the channel of invalidations, whose messages are state keys
     * @param localRefusals the memory of refused keys the messages clear, or {@code null} for none
     * @param permissionMessage what Redis's refusal of a permission means, and what to grant
     * @param retry how long to wait between failed starts of the container
     * @param scheduler runs the starts: the application's, which stops it
     */
    public InvalidationSubscription(RedisMessageListenerContainer container, String channel,
            @Nullable LocalRefusals localRefusals, UnaryOperator<String> permissionMessage, BackOff retry,
            TaskScheduler scheduler) {
        this.container = container;
        this.scheduler = scheduler;
        this.channel = channel;
        this.localRefusals = localRefusals;
        this.permissionMessage = permissionMessage;
        this.retry = retry;
        this.backOff = retry.start();
        container.addMessageListener(this, new ChannelTopic(channel));
    }

    public void start() {
        if (this.running) {
            return;
        }
        this.running = true;
        listening(false);
        this.backOff = this.retry.start();
        startAfter(0);
    }

    private void startContainer() {
        synchronized (this.starts) {
            if (!this.running || this.container.isRunning()) {
                return;
            }
            if (!this.ready.getAsBoolean()) {
                // Redis cannot be used yet: the limiter's own connection reports why, once
                startAfter(this.backOff.nextBackOff());
                return;
            }
            try {
                this.container.start();
            }
            catch (IllegalStateException ex) {
                // the registration wait ran out: the container still subscribes, or recovers, by itself
                failed(ex);
            }
            catch (RuntimeException ex) {
                // the container gave the start up: a failed start leaves it marked as started
                this.container.stop();
                if (this.running) {
                    // not when it was stopped meanwhile: the application is closing, nothing failed
                    failed(ex);
                    startAfter(this.backOff.nextBackOff());
                }
            }
        }
    }

    private void startAfter(long millis) {
        if (millis == BackOffExecution.STOP || !this.running) {
            return;
        }
        try {
            this.scheduler.schedule(this::startContainer, Instant.now().plusMillis(millis));
        }
        catch (TaskRejectedException ex) {
            // the scheduler is shutting down with the application: nothing is left to subscribe for
        }
    }

    /**
     * The container's recovery back-off: each failed attempt asks it how long to wait, and the
     * subscription counts as lost until one succeeds. The waits of a streak grow until it
     * subscribes again, wherever the container starts over (a blocking client's connection that
     * fails while it subscribes counts as subscribed, which would start every wait from the first).
     */
    private BackOffExecution recoveryBackOff() {
        return () -> {
            changeTo(false);
            return this.recovery.nextBackOff();
        };
    }

    // from 50 ms, doubling: the first waits are as short as the limiter's own reconnects
    private static BackOff recovery() {
        ExponentialBackOff backOff = new ExponentialBackOff(50, 2);
        backOff.setMaxInterval(MAX_RECOVERY_WAIT.toMillis());
        return backOff;
    }

    /**
     * Logs a failed start once per kind of failure in a streak (a client may alternate between
     * two); a refused permission is an error, and the failures that follow it are not logged
     * until it subscribes.
     */
    private void failed(Throwable failure) {
        FailureKind kind = FailureKind.of(failure);
        String message = FailureKind.messageOf(failure);
        if (kind == FailureKind.NOPERM) {
            this.misconfiguration = this.permissionMessage.apply(message);
        }
        else if (this.misconfiguration != null) {
            // what follows a refused subscription says nothing new: the permission is still missing, as logged
            return;
        }
        if (!this.logged.add(kind)) {
            return;
        }
        String until = "; until it can, it remembers no refused key, and it tries again, waiting longer each time, "
                + "up to the reconnect back-off's maximum";
        if (kind == FailureKind.NOPERM) {
            logger.error("Rate limiting cannot subscribe to unbans and resets from other instances: "
                    + this.misconfiguration + until);
        }
        else {
            logger.warn("Rate limiting cannot subscribe to unbans and resets from other instances yet (" + kind.tag()
                    + ": " + message + ")" + until);
        }
    }

    /**
     * Returns why the subscription fails, if the Redis user lacks a permission for it: a
     * configuration error, which lasts until it subscribes.
     * @return what the user lacks and what to grant, or {@code null}
     */
    public @Nullable String misconfiguration() {
        return this.misconfiguration;
    }

    /**
     * Runs an action, on the container's thread, each time a message comes on another channel,
     * and each time the subscription starts (a message sent while it was down is lost); keep it
     * quick. The channel carries one kind of message, such as
     * {@link RedisPolicyOverrides#channel()}; this subscription's own channel carries state keys.
     * @param channel the channel
     * @param action what to do
     */
    public void onMessageOn(String channel, Runnable action) {
        this.announcements.add(action);
        this.container.addMessageListener((message, pattern) -> action.run(), new ChannelTopic(channel));
    }

    @Override
    public void onMessage(Message message, byte @Nullable [] pattern) {
        if (this.localRefusals != null) {
            this.localRefusals.invalidate(new String(message.getBody(), StandardCharsets.UTF_8));
        }
    }

    @Override
    public void onChannelSubscribed(byte[] channel, long count) {
        changeTo(true);
    }

    @Override
    public void onChannelUnsubscribed(byte[] channel, long count) {
        changeTo(false);
    }

    /**
     * Tells the subscription that its connection was lost and that the client restores it by
     * itself (as Lettuce does); it counts as unsubscribed until then.
     */
    public void connectionLost() {
        changeTo(false);
    }

    // synchronized: a lost connection (Netty thread) and a new subscription must apply in order
    private synchronized void changeTo(boolean subscribed) {
        if (this.subscribed.getAndSet(subscribed) == subscribed) {
            return;
        }
        listening(subscribed);
        if (subscribed) {
            this.backOff = this.retry.start();
            this.recovery = RECOVERY.start();
            this.logged.clear();
            this.misconfiguration = null;
            logger.info("Rate limiting hears unbans and resets from other instances on '"
                    + this.channel + "'; refusing known-refused keys from memory");
            // what was announced while this instance was not subscribed is lost: act as if it was heard
            this.announcements.forEach(Runnable::run);
        }
        else if (this.running) {
            logger.warn("Rate limiting lost its subscription to unbans and resets from other instances; until it "
                    + "subscribes again, it remembers no new refused key");
        }
    }

    // while unbans and resets from other instances do not reach this one, no new refusal is
    // remembered; each time they reach it again, the memory starts empty (see LocalRefusals)
    private void listening(boolean listening) {
        if (this.localRefusals != null) {
            this.localRefusals.listening(listening);
        }
    }

    /**
     * Returns whether unbans and resets from other instances reach this one right now.
     * @return {@code true} while subscribed
     */
    public boolean isSubscribed() {
        return this.subscribed.get();
    }

    public void stop() {
        this.running = false;
        synchronized (this.starts) {
            this.container.stop();
        }
        // stopped, it hears nothing, whether or not the container said it unsubscribed
        changeTo(false);
    }

    /** Stops the container for good, with its threads: when the limiter is closed. */
    public void close() {
        stop();
        try {
            this.container.destroy();
        }
        catch (Exception ex) {
            logger.debug("The subscription's listener container failed to close", ex);
        }
    }

}
