package io.github.limiter.interceptor;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The decisions of limits whose on-failure setting is {@link OnFailure#LOCAL}, made by this
 * instance in its own memory while Redis cannot decide, as the script would: the same tiers (a ban
 * is checked first, an alert raised once per key and window, going past {@code max} with a ban bans
 * the key), all of a call's enforced limits pass or none counts, and shadow limits never refuse.
 * Each limit and key counts as {@link LocalCounts} says: as in Redis, but for the sliding log, whose
 * exact log would cost a time per call: two counts, the previous window's counted whole, so that it
 * never passes more than {@code max} in any window (it may refuse a little earlier than Redis).
 *
 * <p>The counts are kept per limit and key, at most {@code maxKeys} of them: expired ones are dropped
 * as the oldest are looked at, and at the cap the key used least recently is forgotten (its next
 * call starts afresh, as in a new window). They are all dropped, once, when Redis decides again
 * ({@link #redisDecided}, one volatile read while nothing is local); Redis's counts hold from
 * then. Decisions are made under one lock, a few hundred nanoseconds each, and only while Redis
 * cannot decide.
 *
 * <p>The log has one WARN line when the instance starts deciding locally and one INFO line when
 * Redis decides again, at most once every ten seconds (a Redis that fails every other call would
 * start and end an outage each time); one WARN line per outage at the cap.
 */
final class LocalLimits {

    /** The keys counted in memory unless told otherwise: a few MB at most. */
    static final int DEFAULT_MAX_KEYS = 10_000;

    private static final Log logger = LogFactory.getLog(LocalLimits.class);

    private static final long QUIET = TimeUnit.SECONDS.toNanos(10);

    // expired keys dropped per decision, from the least recently used end
    private static final int SWEEP = 2;

    private final int maxKeys;

    private final Clock clock;

    // least recently used first; guarded by this
    private final LinkedHashMap<Key, LocalCounts.State> states = new LinkedHashMap<>(16, 0.75f, true);

    // whether anything was decided locally since Redis last decided: read on every Redis decision
    private volatile boolean deciding;

    // guarded by this
    private boolean startLogged;

    // guarded by this
    private boolean capLogged;

    // guarded by this
    private long lastStartLine = System.nanoTime() - QUIET;

    LocalLimits() {
        this(DEFAULT_MAX_KEYS, Clock.systemUTC());
    }

    LocalLimits(int maxKeys, Clock clock) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1, not " + maxKeys);
        }
        this.maxKeys = maxKeys;
        this.clock = clock;
    }

    /**
     * Decides a call Redis could not decide, under those of its limits that decide locally, and
     * tells the limiter's listeners and the call's (the meters, the events, the response headers).
     * @param requests the call's limits that decide locally; not empty
     * @param share the share of each limit's {@code max} this instance allows, above 0 and at most 1
     * @param limiter the limiter whose listeners hear the decisions
     * @param listener the call's listener, or {@code null}
     * @return the binding decision, {@link Decision#local() local}
     */
    Decision decide(List<LimitRequest> requests, double share, RateLimiter limiter,
            @Nullable RateLimitListener listener) {
        List<LimitRequest> shared = (share < 1) ? requests.stream().map((request) -> shared(request, share)).toList()
                : requests;
        List<Decision> decisions = decide(shared);
        Decision binding = Decision.binding(decisions);
        try {
            limiter.decidedLocally(shared, decisions, binding, listener);
        }
        catch (RuntimeException ex) {
            logger.error("Rate-limit listeners failed on a decision made locally", ex);
        }
        return binding;
    }

    /**
     * A request as this instance counts it in memory: under its share of the limit's {@code max}
     * (at least 1, and at least the call's cost, which a request may not exceed), and of its alert
     * threshold and burst.
     */
    static LimitRequest shared(LimitRequest request, double share) {
        Limit limit = request.limit();
        long max = Math.max(Math.max((long) Math.floor(limit.max() * share), 1), request.cost());
        long alertAt = (limit.alertAt() > 0) ? (long) Math.floor(limit.alertAt() * share) : 0;
        long burst = (limit.burst() > 0) ? Math.max((long) Math.floor(limit.burst() * share), max) : 0;
        Limit local = new Limit(limit.algorithm(), max, limit.window(), (alertAt > 0 && alertAt < max) ? alertAt : 0,
                limit.banFor(), limit.mode(), limit.calendar(), limit.zone(), burst);
        return new LimitRequest(request.limitId(), request.key(), local, request.cost());
    }

    /** Decides a call under every limit of {@code requests}: each limit's decision, in order. */
    List<Decision> decide(List<LimitRequest> requests) {
        long now = this.clock.millis();
        List<Decision> decisions = new ArrayList<>(requests.size());
        synchronized (this) {
            started();
            sweep(now);
            LocalCounts.State[] states = new LocalCounts.State[requests.size()];
            LocalCounts.Check[] checks = new LocalCounts.Check[requests.size()];
            boolean allFit = true;
            for (int i = 0; i < states.length; i++) {
                LimitRequest request = requests.get(i);
                states[i] = state(request);
                checks[i] = LocalCounts.check(states[i], request, now);
                boolean enforced = request.limit().mode() == Limit.Mode.ENFORCE;
                if (enforced && checks[i].refuses()) {
                    allFit = false;
                }
            }
            for (int i = 0; i < states.length; i++) {
                decisions.add(LocalCounts.decide(states[i], checks[i], requests.get(i), allFit, now));
            }
        }
        return decisions;
    }

    /**
     * Hears a decision the limiter made: an allowed one is Redis's (a refusal may come from the
     * limiter's memory of an earlier one), so the local counts are dropped, once. One volatile read
     * while nothing was decided locally.
     * @return the decision
     */
    Decision redisDecided(Decision decision) {
        if (this.deciding && decision.outcome() == Decision.Outcome.ALLOWED && !decision.local()) {
            recovered();
        }
        return decision;
    }

    /** The keys counted locally now. */
    synchronized int size() {
        return this.states.size();
    }

    private void started() {
        if (this.deciding) {
            return;
        }
        this.deciding = true;
        this.capLogged = false;
        long now = System.nanoTime();
        this.startLogged = now - this.lastStartLine >= QUIET;
        if (this.startLogged) {
            this.lastStartLine = now;
            logger.warn("Rate limiting decides limits whose on-failure setting is local in this instance's memory "
                    + "while Redis cannot decide: each instance allows up to max per key and window, so N instances "
                    + "up to N x max; Redis's counts hold again once it decides");
        }
    }

    private void recovered() {
        int dropped;
        boolean log;
        synchronized (this) {
            if (!this.deciding) {
                return;
            }
            this.deciding = false;
            dropped = this.states.size();
            this.states.clear();
            log = this.startLogged;
        }
        if (log) {
            logger.info("Rate limiting's limits decide in Redis again; the local counts of " + dropped
                    + " keys were dropped");
        }
    }

    /** Drops a few expired keys from the least recently used end. */
    private void sweep(long now) {
        Iterator<LocalCounts.State> oldest = this.states.values().iterator();
        for (int i = 0; i < SWEEP && oldest.hasNext(); i++) {
            if (oldest.next().expiresAt > now) {
                return;
            }
            oldest.remove();
        }
    }

    private LocalCounts.State state(LimitRequest request) {
        Key key = new Key(request.limitId(), request.key());
        LocalCounts.State state = this.states.get(key);
        if (state != null && state.limit.equals(request.limit())) {
            return state;
        }
        // a limit changed while counting (a policy override) starts over, as a new key does
        state = new LocalCounts.State(request.limit());
        if (this.states.size() >= this.maxKeys) {
            Iterator<Map.Entry<Key, LocalCounts.State>> eldest = this.states.entrySet().iterator();
            eldest.next();
            eldest.remove();
            if (!this.capLogged) {
                this.capLogged = true;
                logger.warn("Rate limiting counts " + this.maxKeys + " keys in memory while Redis cannot decide, "
                        + "its most: the least recently used keys are forgotten, and start afresh. Logged once "
                        + "per outage");
            }
        }
        this.states.put(key, state);
        return state;
    }

    /** A limit and key counted locally. */
    private record Key(String limitId, String key) {
    }


}
