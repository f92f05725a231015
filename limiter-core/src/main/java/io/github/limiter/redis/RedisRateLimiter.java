package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.support.LimitIds;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * A {@link RateLimiter} that decides in Redis with one atomic Lua script per call, whatever the
 * number of limits, and tells its {@link RateLimitListener}s about every decision.
 *
 * <p>Internal API; applications use the {@link RateLimiter} bean the starter provides.
 */
public final class RedisRateLimiter implements RateLimiter {

    private static final Log logger = LogFactory.getLog(RedisRateLimiter.class);

    private static final int REPLY_PER_LIMIT = 6;

    private static final byte[] ACQUIRE = DecisionCall.mode("acquire");

    private static final byte[] CHECK = DecisionCall.mode("check");

    private static final byte[] PEEK = DecisionCall.mode("peek");

    private static final RedisScript<List<Long>> DECIDE = LimiterScripts.decide();

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            RedisRateLimiter.class.getClassLoader());

    private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis",
            RedisRateLimiter.class.getClassLoader());

    private final StringRedisTemplate redis;

    private final String keyPrefix;

    private final List<RateLimitListener> listeners;

    // Failures are logged once per streak, and the recovery once, not once per call.
    private final AtomicBoolean failing = new AtomicBoolean();

    // On Redis Cluster, limits whose keys fall in different slots are decided slot by slot.
    private final boolean cluster;

    private final @Nullable LocalRefusals localRefusals;

    private volatile @Nullable String redisVersion;

    /**
     * Creates a limiter.
     * @param redis the template the script runs through
     * @param keyPrefix the prefix of every key the limiter writes, such as {@code "limiter:"}
     * @param listeners told about every decision, in order
     */
    public RedisRateLimiter(StringRedisTemplate redis, String keyPrefix, List<RateLimitListener> listeners) {
        this(redis, keyPrefix, listeners, null);
    }

    /**
     * Creates a limiter that refuses keys from memory while Redis is known to refuse them.
     * @param redis the template the script runs through
     * @param keyPrefix the prefix of every key the limiter writes, such as {@code "limiter:"}
     * @param listeners told about every decision, in order
     * @param localRefusals the keys this instance refuses without asking Redis, or {@code null}
     */
    public RedisRateLimiter(StringRedisTemplate redis, String keyPrefix, List<RateLimitListener> listeners,
            @Nullable LocalRefusals localRefusals) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
        this.listeners = List.copyOf(listeners);
        this.localRefusals = localRefusals;
        this.cluster = isCluster(redis.getConnectionFactory());
    }

    // each client library is looked at only when it is there: either may be missing
    private static boolean isCluster(@Nullable RedisConnectionFactory factory) {
        if (LETTUCE_PRESENT && factory instanceof LettuceConnectionFactory lettuce) {
            return lettuce.isClusterAware();
        }
        return JEDIS_PRESENT && factory instanceof JedisConnectionFactory jedis && jedis.isRedisClusterAware();
    }

    /**
     * Creates a limiter whose only listener publishes alert and ban events.
     * @param redis the template the script runs through
     * @param keyPrefix the prefix of every key the limiter writes
     * @param publisher publishes alert and ban events
     */
    public RedisRateLimiter(StringRedisTemplate redis, String keyPrefix, ApplicationEventPublisher publisher) {
        this(redis, keyPrefix, List.of(new DecisionEvents(publisher)));
    }

    @Override
    public Decision tryAcquire(List<LimitRequest> requests) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("A call must be under at least one limit");
        }
        // each limit's state key is built once per call: for memory, for the script, and to remember
        String[] stateKeys = new String[requests.size()];
        for (int i = 0; i < stateKeys.length; i++) {
            stateKeys[i] = stateKey(requests.get(i));
        }
        if (this.localRefusals != null) {
            for (int i = 0; i < stateKeys.length; i++) {
                LimitRequest request = requests.get(i);
                Decision refused = (request.limit().mode() == Limit.Mode.ENFORCE)
                        ? this.localRefusals.refuse(stateKeys[i], request) : null;
                if (refused != null) {
                    // decided from memory: only this limit is reported, with no Redis latency
                    notify(listener -> listener.onDecision(List.of(request), List.of(refused), refused, Duration.ZERO));
                    return refused;
                }
            }
        }
        long start = System.nanoTime();
        List<Decision> decisions;
        try {
            List<List<Integer>> groups = this.cluster ? slotGroups(stateKeys) : List.of();
            decisions = (groups.size() > 1) ? acrossSlots(requests, stateKeys, groups)
                    : run(ACQUIRE, requests, stateKeys);
        }
        catch (RuntimeException ex) {
            Duration latency = Duration.ofNanos(System.nanoTime() - start);
            if (this.failing.compareAndSet(false, true)) {
                logger.warn("Rate limiting cannot reach Redis (" + ex.getMessage() + "); until it recovers, limited "
                        + "calls follow their on-failure setting (limiter.redis.on-failure)");
            }
            notify(listener -> listener.onError(requests, ex, latency));
            throw ex;
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        if (this.failing.compareAndSet(true, false)) {
            logger.info("Rate limiting reaches Redis again; decisions are exact again");
        }
        if (this.localRefusals != null) {
            for (int i = 0; i < requests.size(); i++) {
                this.localRefusals.remember(stateKeys[i], requests.get(i), decisions.get(i));
            }
        }
        Decision binding = binding(decisions);
        if (logger.isDebugEnabled()) {
            logger.debug("Decided " + decisions + " in " + latency.toNanos() / 1000 + " us");
        }
        notify(listener -> listener.onDecision(requests, decisions, binding, latency));
        return binding;
    }

    /** Runs the decision script once for limits whose keys share a slot (or on one server). */
    private List<Decision> run(byte[] mode, List<LimitRequest> requests, String[] stateKeys) {
        DecisionCall call = new DecisionCall(mode, requests.size());
        for (int i = 0; i < requests.size(); i++) {
            LimitRequest request = requests.get(i);
            call.add(stateKeys[i], request.limit(), request.cost());
        }
        List<Long> reply = call.execute(this.redis, DECIDE, requests.size() * REPLY_PER_LIMIT);
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            decisions.add(decision(requests.get(i), reply, i * REPLY_PER_LIMIT));
        }
        return decisions;
    }

    /**
     * On Redis Cluster, limits whose keys fall in different slots cannot share one script. Each
     * slot's limits are first checked without writing; only if every enforced limit allows the
     * call is it counted, slot by slot. A slot whose limits refuse is run for real, so that its
     * bans start, and the others are left alone: a rejected call is still counted by none. Between
     * the check and the count another call may take the last permits; then the slots counted
     * before it keep this call's count.
     */
    private List<Decision> acrossSlots(List<LimitRequest> requests, String[] stateKeys, List<List<Integer>> groups) {
        Decision[] decisions = new Decision[requests.size()];
        boolean allow = true;
        List<List<Integer>> refusing = new ArrayList<>();
        for (List<Integer> group : groups) {
            List<Decision> checked = run(CHECK, select(requests, group), select(stateKeys, group));
            boolean refuses = false;
            for (int i = 0; i < group.size(); i++) {
                decisions[group.get(i)] = checked.get(i);
                refuses |= !checked.get(i).shadow() && checked.get(i).outcome() != Outcome.ALLOWED;
            }
            if (refuses) {
                refusing.add(group);
                allow = false;
            }
        }
        for (List<Integer> group : allow ? groups : refusing) {
            List<Decision> decided = run(ACQUIRE, select(requests, group), select(stateKeys, group));
            boolean refused = false;
            for (int i = 0; i < group.size(); i++) {
                decisions[group.get(i)] = decided.get(i);
                refused |= !decided.get(i).shadow() && decided.get(i).outcome() != Outcome.ALLOWED;
            }
            if (allow && refused) {
                // lost the race: the call is refused after all
                allow = false;
                break;
            }
        }
        List<Decision> result = new ArrayList<>(requests.size());
        for (Decision decision : decisions) {
            result.add(allow || decision.outcome() != Outcome.ALLOWED ? decision : notCounted(decision));
        }
        return result;
    }

    /** Indexes of the requests, grouped by the Cluster slot of their keys, in order of first use. */
    private static List<List<Integer>> slotGroups(String[] stateKeys) {
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < stateKeys.length; i++) {
            bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(stateKeys[i]), key -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(bySlot.values());
    }

    private static List<LimitRequest> select(List<LimitRequest> requests, List<Integer> indexes) {
        return indexes.stream().map(requests::get).toList();
    }

    private static String[] select(String[] stateKeys, List<Integer> indexes) {
        return indexes.stream().map(i -> stateKeys[i]).toArray(String[]::new);
    }

    /** A limit that would have allowed a call some other limit refused: nothing was counted. */
    private static Decision notCounted(Decision decision) {
        return new Decision(decision.limitId(), decision.key(), Outcome.REJECTED, decision.limit(), decision.count(),
                decision.remaining(), Duration.ZERO, decision.resetAfter(), false, false, decision.shadow());
    }

    /**
     * Returns the text of the decision script, as assembled from the {@code .lua} files; for
     * benchmarks and tools that run it directly.
     * @return the script
     */
    public static String decisionScript() {
        return DECIDE.getScriptAsString();
    }

    /**
     * Checks that Redis can run the limiter: reachable, version 5.0 or later, and able to load the
     * decision script.
     * @return the Redis server's version
     * @throws IllegalStateException if Redis is older than 5.0
     * @throws org.springframework.dao.DataAccessException if Redis cannot be reached
     */
    public String check() {
        String version = RedisChecks.check(this.redis, DECIDE);
        this.redisVersion = version;
        return version;
    }

    /**
     * Returns the Redis version the last successful {@link #check()} found.
     * @return the version, or {@code null} if no check has succeeded yet
     */
    public @Nullable String redisVersion() {
        return this.redisVersion;
    }

    /**
     * Sends one {@code PING} over the limiter's connection: the cheapest proof that Redis answers
     * within the connection's timeout.
     * @throws org.springframework.dao.DataAccessException if Redis does not answer in time
     */
    public void ping() {
        this.redis.execute((RedisCallback<String>) RedisConnection::ping);
    }

    /**
     * Says whether unbans and resets from other instances reach this one (the invalidation
     * subscription is listening). While they do not, no new refusal is remembered, so an unban
     * elsewhere is never missed for longer than the refusals already remembered last; each time
     * they reach it again, the memory starts empty, since messages may have been lost in between.
     * @param listening whether this instance hears {@link #invalidationChannel()}
     */
    public void invalidationsListening(boolean listening) {
        if (this.localRefusals != null) {
            this.localRefusals.listening(listening);
        }
    }

    /**
     * Returns whether this instance remembers refused keys, to refuse their next calls from memory.
     * @return {@code false} with the local cache off, or while invalidations cannot reach it
     */
    public boolean remembersRefusals() {
        return this.localRefusals != null && this.localRefusals.remembering();
    }

    @Override
    public LimitState state(String limitId, String key, Limit limit) {
        Objects.requireNonNull(key, "key must not be null");
        checkLimitId(limitId);
        List<Long> reply = new DecisionCall(PEEK, 1).add(RedisKeys.state(this.keyPrefix, limitId, key), limit, 0)
            .execute(this.redis, DECIDE, 3);
        return new LimitState(reply.get(0), Duration.ofMillis(reply.get(1)), Duration.ofMillis(reply.get(2)));
    }

    @Override
    public Duration banTimeLeft(String limitId, String key) {
        Long ttl = this.redis.getExpire(keys(limitId, key, false).get(1), TimeUnit.MILLISECONDS);
        return (ttl != null && ttl > 0) ? Duration.ofMillis(ttl) : Duration.ZERO;
    }

    @Override
    public boolean unban(String limitId, String key) {
        List<String> keys = keys(limitId, key, false);
        boolean banned = Boolean.TRUE.equals(this.redis.delete(keys.get(1)));
        this.redis.delete(List.of(keys.get(0), keys.get(2), keys.get(0) + RedisKeys.SHADOW_BAN));
        forgetEverywhere(keys.get(0));
        return banned;
    }

    @Override
    public void reset(String limitId, String key) {
        List<String> keys = keys(limitId, key, false);
        this.redis.delete(List.of(keys.get(0), keys.get(1), keys.get(2), keys.get(0) + RedisKeys.SHADOW_BAN));
        forgetEverywhere(keys.get(0));
    }

    /**
     * Returns the pub/sub channel on which instances tell each other to forget a locally refused
     * key; messages are state keys.
     * @return the channel
     */
    public String invalidationChannel() {
        return this.keyPrefix + "local-refusals";
    }

    /**
     * Forgets a locally refused key, when another instance lifted its ban or reset it.
     * @param stateKey the key's state key, as published on {@link #invalidationChannel()}
     */
    public void forgetLocally(String stateKey) {
        if (this.localRefusals != null) {
            this.localRefusals.forget(stateKey);
        }
    }

    private void forgetEverywhere(String stateKey) {
        if (this.localRefusals != null) {
            this.localRefusals.forget(stateKey);
            this.redis.convertAndSend(invalidationChannel(), stateKey);
        }
    }

    private String stateKey(LimitRequest request) {
        checkLimitId(request.limitId());
        return RedisKeys.state(this.keyPrefix, request.limitId(), request.key());
    }

    private List<String> keys(String limitId, String key, boolean shadow) {
        Objects.requireNonNull(key, "key must not be null");
        checkLimitId(limitId);
        return RedisKeys.of(this.keyPrefix, limitId, key, shadow);
    }

    private static void checkLimitId(String limitId) {
        Objects.requireNonNull(limitId, "limitId must not be null");
        String problem = LimitIds.problemWith(limitId);
        if (problem != null) {
            throw new IllegalArgumentException("limitId '" + limitId + "' " + problem);
        }
    }

    private static Decision decision(LimitRequest request, List<Long> reply, int at) {
        int code = reply.get(at).intValue();
        Outcome outcome = switch (code) {
            case 0 -> Outcome.ALLOWED;
            case 2 -> Outcome.BANNED;
            default -> Outcome.REJECTED;
        };
        long max = request.limit().max();
        long count = reply.get(at + 1);
        return new Decision(request.limitId(), request.key(), outcome, max, count,
                (outcome == Outcome.BANNED) ? 0 : Math.max(0, max - count), Duration.ofMillis(reply.get(at + 3)),
                Duration.ofMillis(reply.get(at + 2)), reply.get(at + 4) == 1L, reply.get(at + 5) == 1L,
                request.limit().mode() == Limit.Mode.SHADOW);
    }

    /**
     * Enforced limits bind over shadow ones; then a rejection over an allowance; then the longest
     * wait, or the fewest calls remaining.
     */
    private static Decision binding(List<Decision> decisions) {
        Decision binding = null;
        for (Decision decision : decisions) {
            binding = (binding == null || binds(decision, binding)) ? decision : binding;
        }
        return binding;
    }

    private static boolean binds(Decision candidate, Decision current) {
        if (candidate.shadow() != current.shadow()) {
            return !candidate.shadow();
        }
        boolean candidateAllowed = candidate.outcome() == Outcome.ALLOWED;
        if (candidateAllowed != (current.outcome() == Outcome.ALLOWED)) {
            return !candidateAllowed;
        }
        return candidateAllowed ? candidate.remaining() < current.remaining()
                : candidate.retryAfter().compareTo(current.retryAfter()) > 0;
    }

    private void notify(Consumer<RateLimitListener> call) {
        for (RateLimitListener listener : this.listeners) {
            try {
                call.accept(listener);
            }
            catch (RuntimeException ex) {
                logger.error("Rate limit listener " + listener + " failed", ex);
            }
        }
    }

}
