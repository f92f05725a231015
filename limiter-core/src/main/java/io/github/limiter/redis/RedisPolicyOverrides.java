package io.github.limiter.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.limiter.LimitChecks.Field;
import io.github.limiter.LimitDescription;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.policy.PolicyOverrides;
import io.github.limiter.policy.RateLimitPolicyChangedEvent.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.scheduling.TaskScheduler;

/**
 * Keeps the policy overrides of every instance in Redis, and applies them here: one hash,
 * {@code <prefix>policy-overrides}, with a field per policy and value ({@code free/max}), read by
 * every instance every {@code pollInterval}. A change made on this instance applies here at once;
 * it is announced to the others on a channel of its own ({@link #channel()}), and those that
 * listen ({@link #changedElsewhere()}) read the hash as soon as
 * they hear it (and each time their subscription starts, since an announcement made while it was
 * down is lost), and every other instance applies it within one {@code pollInterval} (plus a Redis
 * round trip) even if it missed the announcement. An instance that cannot reach Redis keeps the
 * overrides it last read, tries again every second (or every {@code pollInterval}, if shorter), and
 * applies the latest ones as soon as it reads them again, after a start while Redis was down too.
 * An application without policies reads nothing.
 *
 * <p>The hash expires {@code retention} after its latest change, like every key the limiter writes;
 * while any instance runs, it renews that time at least once an hour, so an override lasts until it
 * is removed unless no instance has run for that long.
 *
 * <p>The hash bears a mark, when Redis made it and how many changes it has taken, and a change never
 * empties it: a hash that was read here and is then gone, made anew, or with fewer changes was lost
 * by Redis (a restart without persistence, a flush, an eviction). The overrides it took with it are
 * logged as lost, at WARN, rather than as removed by another instance.
 *
 * <p>Internal API; it may change in any release.
 */
public final class RedisPolicyOverrides implements SmartLifecycle {

    private static final Log logger = LogFactory.getLog(RedisPolicyOverrides.class);

    private static final RedisScript<String> WRITE = LimiterScripts.policyOverrides();

    private static final Duration LONGEST_RENEWAL = Duration.ofHours(1);

    /** How soon a failed read is tried again, when the poll interval is longer. */
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final StringRedisTemplate redis;

    private final String key;

    private final PolicyOverrides overrides;

    private final Duration pollInterval;

    private final Duration retention;

    // a failed read is logged once per streak
    private final AtomicBoolean failing = new AtomicBoolean();

    // one early retry at a time, after a failed read
    private final AtomicBoolean retrying = new AtomicBoolean();

    private final PolicyOverridesHash hash;

    private final TaskScheduler scheduler;

    private volatile boolean running;

    private volatile @Nullable ScheduledFuture<?> polling;

    private volatile long renewedAt;

    // the hash's mark at this instance's latest read, to tell a hash Redis lost from one emptied
    private PolicyOverridesHash.Mark mark = PolicyOverridesHash.Mark.NONE;

    private final String channel;

    /**
     * Creates the store, in the limiter's Redis under its key prefix; {@link #start()} begins
     * reading. Where the limiter subscribes to other instances
     * ({@link RedisRateLimiterBuilder#invalidations}), it hears their changes at once; otherwise
     * at its next read.
     * @param limiter the limiter, whose template and key prefix the store uses
     * @param overrides the overrides the limits of this instance follow
     * @param pollInterval how often to read the overrides: the longest an instance takes to apply a
     * change made on another
     * @param retention how long the overrides live in Redis after their latest change, while no
     * instance runs
     * @param scheduler runs the reads, one at a time: the application's, which stops it
     */
    public RedisPolicyOverrides(RedisRateLimiter limiter, PolicyOverrides overrides, Duration pollInterval,
            Duration retention, TaskScheduler scheduler) {
        this(limiter.redis, limiter.keyPrefix, overrides, pollInterval, retention, scheduler);
        limiter.background.onMessageOn(this.channel, this::changedElsewhere);
    }

    /**
     * Creates the store, without hearing other instances' changes but at its reads.
     * @param redis the template to read and write through
     * @param keyPrefix the limiter's key prefix
     * @param overrides the overrides the limits of this instance follow
     * @param pollInterval how often to read the overrides: the longest an instance takes to apply a
     * change made on another
     * @param retention how long the overrides live in Redis after their latest change, while no
     * instance runs
     * @param scheduler runs the reads, one at a time: the application's, which stops it
     */
    RedisPolicyOverrides(StringRedisTemplate redis, String keyPrefix, PolicyOverrides overrides,
            Duration pollInterval, Duration retention, TaskScheduler scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler must not be null");
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.key = RedisLayout.policyOverrides(Objects.requireNonNull(keyPrefix, "keyPrefix must not be null"));
        this.hash = new PolicyOverridesHash(this.key);
        this.channel = RedisLayout.policyChangesChannel(keyPrefix);
        this.overrides = Objects.requireNonNull(overrides, "overrides must not be null");
        this.pollInterval = pollInterval;
        this.retention = retention;
    }

    /**
     * Returns the pub/sub channel on which each change this instance makes is announced, so that
     * the instances that listen to it read the overrides at once instead of at their next poll. It
     * carries nothing else.
     * @return the channel, {@code <prefix>policy-changes}
     */
    String channel() {
        return this.channel;
    }

    /**
     * Reads the overrides without waiting for the next poll, on the scheduler: what an
     * instance does when it hears that another one made a change.
     */
    void changedElsewhere() {
        if (this.overrides.hasPolicies()) {
            pollAfter(Duration.ZERO, () -> { });
        }
    }

    /**
     * Sets values of a policy's override, keeping the values it already has that {@code values}
     * does not set, after checking the result against this instance's limits. Applies here at once.
     * @param policy the policy's name
     * @param values the values to set
     * @param requester who asked, named in this instance's log line (an authenticated user's name, or
     * {@code anonymous}); {@code null} where no one asked
     * @return the policy's limits as they apply now
     * @throws IllegalArgumentException if the policy is not defined or the result breaks a rule
     * @throws org.springframework.dao.DataAccessException if Redis cannot be written
     */
    public synchronized List<LimitDescription> set(String policy, PolicyOverride values, @Nullable String requester) {
        return change(policy, values, Set.of(), requester);
    }

    /**
     * Sets some values of a policy's override and removes others, after checking the result; an
     * override left with no value is removed. Applies here at once.
     * @param policy the policy's name
     * @param values the values to set
     * @param removed the fields whose override to remove, back to their configured values
     * @param requester who asked, named in this instance's log line (an authenticated user's name, or
     * {@code anonymous}); {@code null} where no one asked (a configuration refresh)
     * @return the policy's limits as they apply now
     * @throws IllegalArgumentException if the policy is not defined or the result breaks a rule
     * @throws org.springframework.dao.DataAccessException if Redis cannot be written
     */
    public synchronized List<LimitDescription> change(String policy, PolicyOverride values, Set<Field> removed,
            @Nullable String requester) {
        if (values.isEmpty() && removed.isEmpty()) {
            throw new IllegalArgumentException("A change of policy '" + policy
                    + "' sets none of max, window, alert-at and ban-for");
        }
        PolicyOverride result = without(read().getOrDefault(policy, PolicyOverride.NONE).with(values), removed);
        this.overrides.check(policy, result);
        write(policy, result, requester);
        return this.overrides.limitsOf(policy);
    }

    /**
     * Removes a policy's override: its limits go back to their configured values. Applies here at
     * once.
     * @param policy the policy's name
     * @param requester who asked, named in this instance's log line (an authenticated user's name, or
     * {@code anonymous}); {@code null} where no one asked
     * @return whether there was an override
     * @throws org.springframework.dao.DataAccessException if Redis cannot be written
     */
    public synchronized boolean remove(String policy, @Nullable String requester) {
        boolean had = read().containsKey(policy);
        write(policy, PolicyOverride.NONE, requester);
        return had;
    }

    private void write(String policy, PolicyOverride override, @Nullable String requester) {
        List<String> args = new ArrayList<>();
        args.add(Long.toString(this.retention.toMillis()));
        args.addAll(PolicyOverridesHash.fields(policy, override));
        this.redis.execute(WRITE, List.of(this.key), args.toArray());
        this.renewedAt = System.nanoTime();
        apply(entries(), Origin.THIS_INSTANCE, requester);
        announce();
    }

    private void announce() {
        try {
            this.redis.convertAndSend(this.channel, this.key);
        }
        catch (RuntimeException ex) {
            // written and applied here: the others read it at their next poll instead
            logger.warn("A change of the rate limit policy overrides was written but could not be announced ("
                    + ex.getMessage() + "); the other instances apply it at their next read, within "
                    + this.pollInterval.toMillis() + " ms");
        }
    }

    /**
     * Reads the overrides from Redis and applies any change: what the poller does every interval.
     * @throws org.springframework.dao.DataAccessException if Redis cannot be read
     */
    public synchronized void refresh() {
        Map<String, PolicyOverride> latest = apply(entries(), Origin.ANOTHER_INSTANCE, null);
        if (!latest.isEmpty() && System.nanoTime() - this.renewedAt > renewal().toNanos()) {
            this.redis.expire(this.key, this.retention);
            this.renewedAt = System.nanoTime();
        }
    }

    /**
     * Applies what the hash holds now. Where Redis lost the hash since the latest read, the
     * overrides it no longer holds are logged as lost and applied as such first; what it holds
     * was written since, and comes from {@code origin}.
     * @return the overrides the hash holds
     */
    private Map<String, PolicyOverride> apply(Map<Object, Object> entries, Origin origin, @Nullable String requester) {
        Map<String, PolicyOverride> latest = this.hash.parse(entries);
        PolicyOverridesHash.Mark mark = this.hash.mark(entries);
        if (mark.lostSince(this.mark)) {
            Map<String, PolicyOverride> kept = new LinkedHashMap<>(this.overrides.current());
            Set<String> lost = new TreeSet<>(kept.keySet());
            lost.removeAll(latest.keySet());
            kept.keySet().retainAll(latest.keySet());
            if (!lost.isEmpty()) {
                String which = (lost.size() == 1) ? "policy " + lost.iterator().next() + " is back to its"
                        : "policies " + String.join(", ", lost) + " are back to their";
                logger.warn("Rate limit policy overrides were lost from Redis (it restarted without persistence, was "
                        + "flushed, or evicted " + this.key + "): " + which + " configured values");
                this.overrides.update(kept, Origin.LOST, null);
            }
        }
        this.mark = mark;
        this.overrides.update(latest, origin, requester);
        return latest;
    }

    private Duration renewal() {
        Duration half = this.retention.dividedBy(2);
        return (half.compareTo(LONGEST_RENEWAL) < 0) ? half : LONGEST_RENEWAL;
    }

    /**
     * Reads the overrides kept in Redis, without applying them.
     * @return the overrides, by policy name
     * @throws org.springframework.dao.DataAccessException if Redis cannot be read
     */
    public Map<String, PolicyOverride> read() {
        return this.hash.parse(entries());
    }

    private Map<Object, Object> entries() {
        return this.redis.opsForHash().entries(this.key);
    }

    private static PolicyOverride without(PolicyOverride override, Set<Field> removed) {
        return new PolicyOverride(removed.contains(Field.MAX) ? null : override.max(),
                removed.contains(Field.WINDOW) ? null : override.window(),
                removed.contains(Field.ALERT_AT) ? null : override.alertAt(),
                removed.contains(Field.BAN_FOR) ? null : override.banFor());
    }

    // one read at a time, whichever of the scheduler's threads runs it
    private synchronized void poll() {
        if (!this.running) {
            return;
        }
        try {
            refresh();
            if (this.failing.compareAndSet(true, false)) {
                logger.info("Rate limit policy overrides are read from Redis again");
            }
        }
        catch (RuntimeException ex) {
            if (this.failing.compareAndSet(false, true)) {
                logger.warn("Rate limit policy overrides cannot be read from Redis (" + ex.getMessage()
                        + "); this instance keeps the overrides it last read, and tries again every "
                        + retryInterval().toMillis() + " ms");
            }
            retrySoon();
        }
    }

    private Duration retryInterval() {
        return (this.pollInterval.compareTo(RETRY) > 0) ? RETRY : this.pollInterval;
    }

    /**
     * After a failed read, with a poll interval longer than {@link #RETRY}, reads again after that
     * instead: an instance that could not read (during an outage, or a start while Redis was down)
     * catches up as soon as Redis answers, not at its next poll.
     */
    private void retrySoon() {
        if (this.pollInterval.compareTo(RETRY) > 0 && this.retrying.compareAndSet(false, true)
                && !pollAfter(RETRY, () -> this.retrying.set(false))) {
            this.retrying.set(false);
        }
    }

    /**
     * Reads the overrides on the scheduler after a delay, once {@code first} has run there.
     * @return {@code false} if not started or stopping: nothing is left to apply overrides to
     */
    private boolean pollAfter(Duration delay, Runnable first) {
        if (!this.running) {
            return false;
        }
        try {
            this.scheduler.schedule(() -> {
                first.run();
                poll();
            }, Instant.now().plus(delay));
            return true;
        }
        catch (TaskRejectedException ex) {
            return false;
        }
    }

    /**
     * Returns whether the latest read of the overrides succeeded.
     * @return {@code false} while Redis cannot be read
     */
    public boolean isReading() {
        return !this.failing.get();
    }

    @Override
    public void start() {
        if (this.running) {
            return;
        }
        this.running = true;
        // without policies there is nothing to override, and nothing to read every interval
        if (this.overrides.hasPolicies()) {
            this.polling = this.scheduler.scheduleWithFixedDelay(this::poll, Instant.now(), this.pollInterval);
        }
    }

    @Override
    public void stop() {
        this.running = false;
        ScheduledFuture<?> polling = this.polling;
        this.polling = null;
        if (polling != null) {
            polling.cancel(false);
        }
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

}
