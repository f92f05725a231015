package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.limiter.RateLimitListener;
import io.github.limiter.observation.DecisionObservationConvention;
import io.github.limiter.observation.DefaultDecisionObservationConvention;
import io.github.limiter.internal.events.DecisionEvents;
import io.github.limiter.internal.events.RecentEvents;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.github.limiter.internal.refusals.InvalidationSubscription;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.backoff.BackOff;

/**
 * Builds a {@link RedisRateLimiter}, which {@link RedisRateLimiter#builder} starts: the one way to
 * make one.
 *
 * @since 0.1.0
 */
public final class RedisRateLimiterBuilder {

    private final StringRedisTemplate redis;

    private String keyPrefix = "limiter:";

    private final List<RateLimitListener> listeners = new ArrayList<>();

    private @Nullable LocalRefusals localRefusals;

    // each limiter built gets its own, which it closes
    private @Nullable Supplier<DecisionEvents> decisionEvents;

    private @Nullable Executor recentEventsWriter;

    private @Nullable Function<RedisRateLimiter, InvalidationSubscription> subscription;

    private @Nullable Consumer<Runnable> lostConnections;


    private int maxBatch = RedisRateLimiter.DEFAULT_MAX_BATCH;

    private boolean normalizeKeys = true;

    private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

    private @Nullable DecisionObservationConvention observationConvention;

    RedisRateLimiterBuilder(StringRedisTemplate redis) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
    }

    /**
     * Sets the prefix of every key and channel the limiter names in Redis.
     * @param keyPrefix the prefix; {@code "limiter:"} unless set
     * @return this builder
     */
    public RedisRateLimiterBuilder keyPrefix(String keyPrefix) {
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
        return this;
    }

    /**
     * Adds listeners told about every decision, in order, after those added before.
     * @param listeners the listeners
     * @return this builder
     */
    public RedisRateLimiterBuilder listeners(List<? extends RateLimitListener> listeners) {
        this.listeners.addAll(listeners);
        return this;
    }

    /**
     * Publishes each alert and ban as a {@link io.github.limiter.RateLimitAlertEvent} or
     * {@link io.github.limiter.RateLimitBanEvent}, also for a decision Redis made after its call had
     * timed out, and logs it at WARN: at most 10 lines a minute, the rest counted in one line.
     * A shadow limit's would-be ban is logged, not published.
     * @param publisher where the events go, such as the application context
     * @return this builder
     */
    public RedisRateLimiterBuilder publishEvents(ApplicationEventPublisher publisher) {
        return publishEvents(publisher, DecisionEvents.DEFAULT_MAX_LOG_LINES, DecisionEvents.DEFAULT_LOG_INTERVAL);
    }

    /**
     * Publishes each alert and ban as {@link #publishEvents(ApplicationEventPublisher)} does, with
     * at most {@code maxLogLines} WARN lines per {@code logInterval}, so that an attacker who
     * rotates keys cannot drive the log; the rest are counted in one line when the interval ends,
     * or when the limiter is closed. The events themselves are never bounded.
     * @param publisher where the events go, such as the application context
     * @param maxLogLines the most WARN lines per interval; 0 for only the count
     * @param logInterval the interval
     * @return this builder
     */
    public RedisRateLimiterBuilder publishEvents(ApplicationEventPublisher publisher, int maxLogLines,
            Duration logInterval) {
        Objects.requireNonNull(publisher, "publisher must not be null");
        Objects.requireNonNull(logInterval, "logInterval must not be null");
        this.decisionEvents = () -> new DecisionEvents(publisher, maxLogLines, logInterval);
        return this;
    }

    /**
     * Keeps the latest alerts and bans of each limit in Redis, for
     * {@link RedisRateLimiter#recentEvents}: a list of at most 100 per limit,
     * {@code <prefix>events:{<limit-id>}}, newest first, expiring a week after its latest event.
     * Written on the given executor, never on the deciding thread; an event that cannot be
     * written (Redis down, more than 1000 waiting) is dropped, with one WARN line per streak.
     * @param writer writes the events, such as the application's task executor, which stops it
     * @return this builder
     */
    public RedisRateLimiterBuilder recentEvents(Executor writer) {
        this.recentEventsWriter = Objects.requireNonNull(writer, "writer must not be null");
        return this;
    }

    /**
     * Makes the limiter remember, on this instance, keys that Redis refused until a known
     * instant, and refuse their calls from memory until then; off unless set. An unban or reset
     * made here clears the memory at once; one made on another instance reaches it through the
     * subscription of {@link #invalidations}, which the Spring Boot starter sets up. Without one,
     * a refusal remembered here lasts until its instant or {@code maxTime}, whatever other
     * instances do.
     * @param maxEntries the most keys remembered
     * @param maxTime the longest a refusal is trusted, in case a message is lost
     * @return this builder
     */
    public RedisRateLimiterBuilder localCache(int maxEntries, Duration maxTime) {
        this.localRefusals = new LocalRefusals(maxEntries, maxTime);
        return this;
    }

    /**
     * Keeps the limiter subscribed, from {@link RedisRateLimiter#start()} to
     * {@link RedisRateLimiter#stop()}, to the unbans and resets of the other instances that share
     * its Redis, so that the keys they free are forgotten here at once ({@link #localCache}); and to
     * the other channels the limiter's parts listen on, such as the policy overrides'. It
     * subscribes in the background once {@link RedisRateLimiter#check()} has passed, so the
     * application starts while Redis is down; a Spring Data Redis
     * {@link org.springframework.data.redis.listener.RedisMessageListenerContainer} of its own
     * subscribes, and recovers a lost subscription on the back-off. While it is not subscribed, no
     * new refusal is remembered. {@link RedisRateLimiter.Health#hearsOtherInstances()} says whether it is
     * subscribed.
     * @param connections makes the subscription's connection
     * @param registrationWait how long Redis may take to confirm a subscription
     * @param retry how long to wait between attempts
     * @param executor runs the attempts and the container's recoveries, and, with a blocking client
     * such as Jedis, holds one thread for the subscription: the application's, which stops it
     * @return this builder
     */
    public RedisRateLimiterBuilder invalidations(RedisConnectionFactory connections, Duration registrationWait,
            BackOff retry, ScheduledExecutorService executor) {
        Objects.requireNonNull(connections, "connections must not be null");
        Objects.requireNonNull(registrationWait, "registrationWait must not be null");
        Objects.requireNonNull(retry, "retry must not be null");
        Objects.requireNonNull(executor, "executor must not be null");
        this.subscription = (limiter) -> InvalidationSubscription.over(connections, limiter::checked,
                registrationWait, limiter.invalidationChannel(), limiter.localRefusals, limiter::permissionMessage,
                retry, executor);
        return this;
    }

    /**
     * Tells the subscription of {@link #invalidations} when its connection is lost, with a client
     * that restores the subscription by itself (Lettuce): it counts as unsubscribed until then.
     * @param lostConnections registers what to run each time the connection is lost
     * @return this builder
     */
    public RedisRateLimiterBuilder subscriptionConnectionLost(Consumer<Runnable> lostConnections) {
        this.lostConnections = Objects.requireNonNull(lostConnections, "lostConnections must not be null");
        return this;
    }

    /**
     * Says whether keys are compared as people read them: in Unicode normalization form C, so
     * that {@code é} written as one code point and as {@code e} followed by a combining accent
     * are one key, with one count, one ban and one unban. Decisions and events keep the key as
     * the call spelled it. A key of code points below U+0300 (ASCII and Latin-1 among them) is
     * already in that form, and is checked without a copy.
     * @param normalizeKeys {@code false} to compare keys code unit by code unit; {@code true}
     * unless set
     * @return this builder
     */
    public RedisRateLimiterBuilder normalizeKeys(boolean normalizeKeys) {
        this.normalizeKeys = normalizeKeys;
        return this;
    }

    /**
     * Sets the most decisions coalesced into one script call, with Lettuce's shared
     * connection: while one decision is in flight on it, those that arrive are sent together,
     * in one script call that decides each of them on its own. A decision that finds nothing
     * in flight is sent at once.
     * @param maxBatch at least 1 (none coalesced); {@value RedisRateLimiter#DEFAULT_MAX_BATCH} unless set
     * @return this builder
     */
    public RedisRateLimiterBuilder maxBatch(int maxBatch) {
        this.maxBatch = maxBatch;
        return this;
    }

    /**
     * Makes each decision an observation in the given registry: {@code limiter.decision}, named
     * and given its key values by {@link DefaultDecisionObservationConvention} unless
     * {@code convention} says otherwise. The observation starts before the limiter
     * looks at anything, is current while the decision's script call is sent, so that an
     * observation the Redis client makes of that call (Lettuce's {@code MicrometerTracing}, which
     * Spring Boot sets up where the application observes) is its child, and stops once the
     * decision is made or has failed, before the caller hears of it. Decisions refused from
     * memory are observed too, without a child. Decisions that wait for a script call in flight,
     * to be coalesced into the next one, are sent together from the Redis client's thread, where
     * none of them is current: that call has no parent.
     * @param registry the registry; {@link ObservationRegistry#NOOP}, the default, for none
     * @param convention names the observations and gives their key values, or {@code null} for
     * {@link DefaultDecisionObservationConvention}
     * @return this builder
     */
    public RedisRateLimiterBuilder observations(ObservationRegistry registry,
            @Nullable DecisionObservationConvention convention) {
        this.observationRegistry = Objects.requireNonNull(registry, "registry must not be null");
        this.observationConvention = convention;
        return this;
    }

    /**
     * Builds the limiter; {@link RedisRateLimiter#check()} checks Redis once it can be reached.
     * @return the limiter
     * @throws IllegalArgumentException if {@code maxBatch} is under 1
     */
    public RedisRateLimiter build() {
        List<RateLimitListener> listeners = new ArrayList<>(this.listeners);
        RecentEvents recentEvents = (this.recentEventsWriter != null)
                ? new RecentEvents(this.redis, LimiterScripts.recordEvent(),
                        (limitId) -> RedisLayout.events(this.keyPrefix, limitId), this.recentEventsWriter) : null;
        DecisionEvents decisionEvents = (this.decisionEvents != null) ? this.decisionEvents.get() : null;
        if (decisionEvents != null) {
            listeners.add(decisionEvents);
        }
        if (recentEvents != null) {
            listeners.add(recentEvents);
        }
        RedisRateLimiter limiter = new RedisRateLimiter(this.redis, this.keyPrefix, listeners, this.localRefusals,
                this.maxBatch);
        InvalidationSubscription subscription = (this.subscription != null) ? this.subscription.apply(limiter) : null;
        if (subscription != null && this.lostConnections != null) {
            this.lostConnections.accept(subscription::connectionLost);
        }
        limiter.background = new LimiterBackground(recentEvents, decisionEvents, subscription);
        limiter.engine.normalizeKeys(this.normalizeKeys);
        limiter.admin.normalizeKeys(this.normalizeKeys);
        limiter.observations.registry(this.observationRegistry);
        limiter.observations.convention(this.observationConvention);
        return limiter;
    }

}
