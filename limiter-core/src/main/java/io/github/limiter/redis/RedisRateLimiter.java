package io.github.limiter.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.github.limiter.internal.transport.FailureKind;
import io.github.limiter.internal.transport.RedisPermissionException;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A {@link RateLimiter} that decides in Redis with one atomic Lua script per call, whatever the
 * number of limits, and tells its {@link RateLimitListener}s about every decision; and the
 * {@link RateLimitAdmin} of the keys it decides on. It decides blocking
 * ({@link #tryAcquire(List)}) or not ({@link #tryAcquireAsync(List)}): with Lettuce over its
 * asynchronous commands, with other clients on a few threads of its own. With Lettuce, concurrent
 * decisions are coalesced into one script call (see {@link RedisRateLimiterBuilder#maxBatch}).
 *
 * <p>{@link #builder} makes one; the Spring Boot starter makes the application's. What it runs in
 * the background, such as its subscription to the other instances' unbans and resets, runs from
 * {@link #start()} to {@link #stop()}, which Spring calls; {@link #close()} ends it all.
 */
public final class RedisRateLimiter implements RateLimiter, RateLimitAdmin, SmartLifecycle, AutoCloseable {

    /** The most decisions coalesced into one script call unless told otherwise. */
    public static final int DEFAULT_MAX_BATCH = 64;

    // RedisPolicyOverrides's too
    final StringRedisTemplate redis;

    final String keyPrefix;

    final @Nullable LocalRefusals localRefusals;

    final DecisionEngine engine;

    // the builder sets its registry and convention
    final DecisionObservations observations = new DecisionObservations();

    final ScriptRunners runners;

    final RedisLimitAdmin admin;

    private final RedisStartChecks checks;

    // set by the builder before the limiter is handed out; until then none, with a running state of its own
    LimiterBackground background = new LimiterBackground(null, null, null);

    // the builder's, and tests' (through their Limiters)
    RedisRateLimiter(StringRedisTemplate redis, String keyPrefix, List<RateLimitListener> listeners,
            @Nullable LocalRefusals localRefusals, int maxBatch) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
        this.localRefusals = localRefusals;
        this.runners = ScriptRunners.of(redis, maxBatch);
        this.checks = new RedisStartChecks(redis, this.runners, keyPrefix);
        this.engine = new DecisionEngine(keyPrefix, listeners, localRefusals, this.runners.cluster(),
                this.checks::permissionMessage, this.checks::misconfigured);
        this.admin = new RedisLimitAdmin(redis, this.runners.blocking(), keyPrefix, localRefusals);
    }

    /**
     * Starts a limiter that decides through the given template; everything else has a default.
     * @param redis the template the scripts run through: with Lettuce's shared connection (Spring
     * Data Redis's default), decisions do not block and concurrent ones are coalesced
     * @return the builder
     */
    public static RedisRateLimiterBuilder builder(StringRedisTemplate redis) {
        return new RedisRateLimiterBuilder(redis);
    }

    @Override
    public Decision tryAcquire(List<LimitRequest> requests) {
        return tryAcquire(requests, null);
    }

    /** {@inheritDoc} <p>This limiter tells the listener of every decision of the call, after its own listeners. */
    @Override
    public Decision tryAcquire(List<LimitRequest> requests, @Nullable RateLimitListener listener) {
        return DecisionEngine.join(this.observations.observe(requests,
                () -> this.engine.decide(requests, this.runners.forBlockingDecisions(), listener)));
    }

    /**
     * {@inheritDoc}
     * <p>This limiter does not block the calling thread: with Lettuce it writes the script call and
     * returns; the stage completes on Lettuce's I/O thread when Redis answers, or fails when the
     * command timeout expires, or at once while the connection is down. With other clients the
     * script runs on a few threads of the limiter's own. A refusal remembered locally completes it
     * before it is returned.
     */
    @Override
    public CompletionStage<Decision> tryAcquireAsync(List<LimitRequest> requests) {
        return tryAcquireAsync(requests, null);
    }

    /**
     * {@inheritDoc}
     * <p>This limiter tells the listener of every decision of the call, after its own listeners.
     */
    @Override
    public CompletionStage<Decision> tryAcquireAsync(List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        try {
            return this.observations.observe(requests, () -> this.engine.decide(requests, this.runners.forAsyncDecisions(), listener));
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /** {@inheritDoc} <p>This limiter tells its listeners (meters, events), then the given one. */
    @Override
    public void decidedLocally(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            @Nullable RateLimitListener listener) {
        this.engine.decidedLocally(requests, decisions, binding, listener);
    }

    /** {@inheritDoc} <p>Under {@code FIXED_WINDOW} and {@code SLIDING_WINDOW}, which keep counts per window. */
    @Override
    public CompletionStage<Boolean> settleAsync(LimitRequest request, Decision decision, long actualCost,
            Duration sinceDecision) {
        return this.engine.settle(request, decision, actualCost, sinceDecision, this.runners.forAsyncDecisions());
    }

    /**
     * Returns the registry decisions are observed in.
     * @return the registry; {@link ObservationRegistry#NOOP} when they are not observed
     */
    public ObservationRegistry getObservationRegistry() {
        return this.observations.registry();
    }

    /**
     * Returns the text of the decision script, as assembled from the {@code .lua} files; for
     * benchmarks and tools that run it directly.
     * @return the script
     */
    public static String decisionScript() {
        return DecisionScript.SCRIPT.getScriptAsString();
    }

    /**
     * Checks that Redis can run the limiter: reachable, version 5.0 or later, able to load the
     * decision script, and letting the limiter's user run it on the limiter's keys and publish on
     * the channel of invalidations (each algorithm decides once, on a key of its own that lives a
     * second); then looks up what the non-blocking decisions run on, so that they need not.
     * @return the Redis server's version
     * @throws IllegalStateException if Redis is older than 5.0, or refuses the limiter's user what
     * it needs: a configuration error ({@link Failure#misconfigured()}) whose message says what to
     * grant, which {@link Health#misconfiguration()} reports until a check passes
     * @throws org.springframework.dao.DataAccessException if Redis cannot be reached
     */
    public String check() {
        return this.checks.check(() -> this.engine.failures().permissionsGranted());
    }

    /**
     * Returns what the limiter knows of its Redis, without asking it: what health indicators,
     * meters and endpoints read.
     * @return the snapshot; its {@link Health#pingFailure()} is {@code null}
     */
    public Health health() {
        RedisPermissionException found = this.checks.misconfiguration();
        String misconfiguration = (found != null) ? found.getMessage() : this.background.subscriptionMisconfiguration();
        return new Health(this.checks.redisVersion(), null, this.engine.failures().recent(), misconfiguration,
                this.background.subscribes(), this.background.hearsOtherInstances(),
                this.localRefusals != null && this.localRefusals.remembering());
    }

    /**
     * Sends a {@code PING} over the limiter's connection, once more if the first fails (one slow
     * command should not fail a probe), and returns {@link #health()} with what it found.
     * @return the snapshot, with the {@code PING}'s failure if both failed
     */
    public Health probe() {
        Failure failure = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                this.redis.execute((RedisCallback<String>) RedisConnection::ping);
                failure = null;
                break;
            }
            catch (RuntimeException ex) {
                failure = Failure.of(ex);
            }
        }
        Health health = health();
        return (failure != null) ? health.withPingFailure(failure) : health;
    }

    @Override
    public LimitState state(String limitId, String key, Limit limit) {
        return this.admin.state(limitId, key, limit);
    }

    @Override
    public Duration banTimeLeft(String limitId, String key) {
        return this.admin.banTimeLeft(limitId, key);
    }

    @Override
    public boolean isBanned(String limitId, String key) {
        return !banTimeLeft(limitId, key).isZero();
    }

    @Override
    public boolean unban(String limitId, String key) {
        return this.admin.unban(limitId, key);
    }

    @Override
    public void reset(String limitId, String key) {
        this.admin.reset(limitId, key);
    }

    /**
     * {@inheritDoc}
     * <p>Kept in Redis by every instance built with {@link RedisRateLimiterBuilder#recentEvents};
     * reading fails with the {@link org.springframework.dao.DataAccessException} of an outage.
     */
    @Override
    public List<RecentEvent> recentEvents(String limitId) {
        return this.background.recentEvents(limitId);
    }

    /**
     * Waits until the alerts and bans of the decisions made so far are written for
     * {@link #recentEvents}, for tests and orderly shutdown.
     * @param timeout the longest to wait
     * @return whether they were written in time; {@code true} where none are kept
     */
    public boolean awaitRecentEventsWritten(Duration timeout) {
        return this.background.awaitRecentEventsWritten(timeout);
    }

    /** Starts the subscription of {@link RedisRateLimiterBuilder#invalidations}, in the background. */
    @Override
    public void start() {
        this.background.start();
    }

    @Override
    public void stop() {
        this.background.stop();
    }

    @Override
    public boolean isRunning() {
        return this.background.isRunning();
    }

    /**
     * Stops all the limiter started: its subscription, its timer for decision deadlines (a decision
     * still waiting for Redis fails at once, and follows its on-failure setting), the threads that
     * run decisions for clients other than Lettuce. A decision made afterwards fails.
     */
    @Override
    public void close() {
        this.background.close();
        this.runners.close();
    }

    /** The pub/sub channel of invalidations, whose messages are state keys. */
    String invalidationChannel() {
        return RedisLayout.invalidationChannel(this.keyPrefix);
    }

    /** Whether the limiter can use Redis: its latest check passed, so its subscription may start. */
    boolean checked() {
        return this.checks.redisVersion() != null && !this.checks.misconfigured();
    }

    /** What Redis's refusal of a permission means for the limiter, and what to grant. */
    String permissionMessage(String refusal) {
        return this.checks.permissionMessage(refusal);
    }

    /**
     * What the limiter knows of its Redis at one moment.
     *
     * @param redisVersion the version the last successful {@link #check()} found, or {@code null}
     * @param pingFailure why Redis did not answer {@link #probe()}'s {@code PING}, or {@code null}
     * @param failureStreak the latest streak of failed decisions, or {@code null} if they succeed
     * @param misconfiguration the permission the Redis user lacks and what to grant, found by
     * {@link #check()} or the subscription; a configuration error that lasts until a check passes
     * @param subscribes whether it subscribes to other instances' unbans and resets at all
     * ({@link RedisRateLimiterBuilder#invalidations})
     * @param hearsOtherInstances whether those unbans and resets reach it right now
     * @param remembersRefusals whether it refuses keys refused before from memory; {@code false}
     * without the local cache, or while it does not hear other instances
     * @since 0.1.0
     */
    public record Health(@Nullable String redisVersion, @Nullable Failure pingFailure, @Nullable FailureStreak failureStreak,
            @Nullable String misconfiguration, boolean subscribes, boolean hearsOtherInstances,
            boolean remembersRefusals) {

        Health withPingFailure(Failure failure) {
            return new Health(this.redisVersion, failure, this.failureStreak, this.misconfiguration, this.subscribes,
                    this.hearsOtherInstances, this.remembersRefusals);
        }

    }

    /**
     * Why a command failed, in the words meters and health use: {@code connection},
     * {@code timeout}, {@code oom}, {@code noperm} (a configuration error: the Redis user lacks a
     * permission), {@code auth}, {@code readonly}, {@code busy}, {@code loading}, {@code wrongtype},
     * {@code cluster}, {@code overloaded} or {@code other}. An error code Redis answered wins over
     * the exception's type, since a client wraps Redis's answer in exceptions of its own.
     *
     * @param kind the kind, as named above
     * @param message the failure's message, Redis's own where it answered one
     * @since 0.1.0
     */
    public record Failure(String kind, String message) {

        /**
         * Returns what a client or the limiter threw, named.
         * @param failure the exception
         * @return its kind and message
         */
        public static Failure of(Throwable failure) {
            return new Failure(FailureKind.of(failure).tag(), FailureKind.messageOf(failure));
        }

        /**
         * Returns whether it is a configuration error (a permission the Redis user lacks) rather
         * than an outage.
         * @return {@code true} for {@code noperm}
         */
        public boolean misconfigured() {
            return FailureKind.NOPERM.tag().equals(this.kind);
        }

    }

    /**
     * A streak of failed decisions: it starts with the first and ends with the next success, and is
     * reported until a minute after its last failure.
     *
     * @param kind the latest failure's kind, as {@link Failure#kind()} names it
     * @param message the latest failure's message, Redis's own where it answered one
     * @param since when the streak's first failure happened
     * @param failures how many decisions failed in it
     * @since 0.1.0
     */
    public record FailureStreak(String kind, String message, Instant since, long failures) {

        /**
         * Returns whether the failure is a configuration error (a permission the Redis user lacks)
         * rather than an outage.
         * @return {@code true} for {@code noperm}
         */
        public boolean misconfigured() {
            return FailureKind.NOPERM.tag().equals(this.kind);
        }

    }

}
