package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;

import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.internal.events.DecisionEvents;
import io.github.limiter.internal.events.RecentEvents;
import io.github.limiter.internal.refusals.InvalidationSubscription;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link RedisRateLimiter} runs besides its decisions, as its builder set it up: the Spring
 * events of alerts and bans, the recent alerts and bans kept in Redis, and the subscription to the
 * other instances' unbans and resets. The limiter starts, stops and closes them.
 */
final class LimiterBackground {

    private final @Nullable RecentEvents recentEvents;

    private final @Nullable DecisionEvents decisionEvents;

    private final @Nullable InvalidationSubscription subscription;

    // whether the limiter was started: without a subscription, there is nothing else to say so
    private volatile boolean running;

    LimiterBackground(@Nullable RecentEvents recentEvents, @Nullable DecisionEvents decisionEvents,
            @Nullable InvalidationSubscription subscription) {
        this.recentEvents = recentEvents;
        this.decisionEvents = decisionEvents;
        this.subscription = subscription;
    }

    void start() {
        this.running = true;
        if (this.subscription != null) {
            this.subscription.start();
        }
    }

    void stop() {
        this.running = false;
        if (this.subscription != null) {
            this.subscription.stop();
        }
    }

    boolean isRunning() {
        return this.running;
    }

    void close() {
        stop();
        if (this.subscription != null) {
            this.subscription.close();
        }
        if (this.decisionEvents != null) {
            this.decisionEvents.close();
        }
    }

    List<RecentEvent> recentEvents(String limitId) {
        return (this.recentEvents != null) ? this.recentEvents.recent(limitId) : List.of();
    }

    boolean awaitRecentEventsWritten(Duration timeout) {
        return this.recentEvents == null || this.recentEvents.awaitWritten(timeout);
    }

    boolean subscribes() {
        return this.subscription != null;
    }

    boolean hearsOtherInstances() {
        return this.subscription != null && this.subscription.isSubscribed();
    }

    @Nullable String subscriptionMisconfiguration() {
        return (this.subscription != null) ? this.subscription.misconfiguration() : null;
    }

    /** Runs an action for each message on another channel, if this instance subscribes at all. */
    boolean onMessageOn(String channel, Runnable action) {
        if (this.subscription == null) {
            return false;
        }
        this.subscription.onMessageOn(channel, action);
        return true;
    }

}
