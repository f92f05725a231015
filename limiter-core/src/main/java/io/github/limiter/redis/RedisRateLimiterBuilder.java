package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.github.limiter.RateLimitListener;
import io.github.limiter.observation.DecisionObservationConvention;
import io.github.limiter.observation.DefaultDecisionObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.redis.core.StringRedisTemplate;

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

    private int maxBatch = RedisRateLimiter.DEFAULT_MAX_BATCH;

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
     * Adds a listener that publishes each alert and ban as a {@link io.github.limiter.RateLimitAlertEvent}
     * or {@link io.github.limiter.RateLimitBanEvent}, and logs it at WARN.
     * @param publisher where the events go, such as the application context
     * @return this builder
     */
    public RedisRateLimiterBuilder publishEvents(ApplicationEventPublisher publisher) {
        this.listeners.add(new DecisionEvents(publisher));
        return this;
    }

    /**
     * Makes the limiter remember, on this instance, keys that Redis refused until a known
     * instant, and refuse their calls from memory until then; off unless set. An unban or reset
     * made here clears the memory at once; one made on another instance reaches it through a
     * {@link LocalRefusalsSubscription}, which the Spring Boot starter sets up. Without one, a
     * refusal remembered here lasts until its instant or {@code maxTime}, whatever other
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
        RedisRateLimiter limiter = new RedisRateLimiter(this.redis, this.keyPrefix, this.listeners,
                this.localRefusals, this.maxBatch);
        limiter.setObservationRegistry(this.observationRegistry);
        limiter.setObservationConvention(this.observationConvention);
        return limiter;
    }

}
