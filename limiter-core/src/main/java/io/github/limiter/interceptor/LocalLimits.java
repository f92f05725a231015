package io.github.limiter.interceptor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
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
 * Fixed windows and calendar periods count as in Redis, and the token bucket refills as there. The
 * sliding window is the same weighted estimate of two counts; the sliding log, whose exact log
 * would cost a time per call, is two counts too, the previous window's counted whole, so that it
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
    private final LinkedHashMap<Key, State> states = new LinkedHashMap<>(16, 0.75f, true);

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
     * @param limiter the limiter whose listeners hear the decisions
     * @param listener the call's listener, or {@code null}
     * @return the binding decision, {@link Decision#local() local}
     */
    Decision decide(List<LimitRequest> requests, RateLimiter limiter, @Nullable RateLimitListener listener) {
        List<Decision> decisions = decide(requests);
        Decision binding = Decision.binding(decisions);
        try {
            limiter.decidedLocally(requests, decisions, binding, listener);
        }
        catch (RuntimeException ex) {
            logger.error("Rate-limit listeners failed on a decision made locally", ex);
        }
        return binding;
    }

    /** Decides a call under every limit of {@code requests}: each limit's decision, in order. */
    List<Decision> decide(List<LimitRequest> requests) {
        long now = this.clock.millis();
        List<Decision> decisions = new ArrayList<>(requests.size());
        synchronized (this) {
            started();
            sweep(now);
            State[] states = new State[requests.size()];
            Check[] checks = new Check[requests.size()];
            boolean allFit = true;
            for (int i = 0; i < states.length; i++) {
                LimitRequest request = requests.get(i);
                states[i] = state(request);
                checks[i] = check(states[i], request, now);
                boolean enforced = request.limit().mode() == Limit.Mode.ENFORCE;
                if (enforced && (checks[i].banLeft > 0 || !checks[i].fits)) {
                    allFit = false;
                }
            }
            for (int i = 0; i < states.length; i++) {
                decisions.add(decide(states[i], checks[i], requests.get(i), allFit, now));
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
        Iterator<State> oldest = this.states.values().iterator();
        for (int i = 0; i < SWEEP && oldest.hasNext(); i++) {
            if (oldest.next().expiresAt > now) {
                return;
            }
            oldest.remove();
        }
    }

    private State state(LimitRequest request) {
        Key key = new Key(request.limitId(), request.key());
        State state = this.states.get(key);
        if (state != null && state.limit.equals(request.limit())) {
            return state;
        }
        // a limit changed while counting (a policy override) starts over, as a new key does
        state = new State(request.limit());
        if (this.states.size() >= this.maxKeys) {
            Iterator<Map.Entry<Key, State>> eldest = this.states.entrySet().iterator();
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

    private static Check check(State state, LimitRequest request, long now) {
        Check check = switch (request.limit().algorithm()) {
            case FIXED_WINDOW -> fixedWindow(state, request, now);
            case SLIDING_WINDOW, SLIDING_LOG -> slidingWindow(state, request, now);
            case TOKEN_BUCKET -> tokenBucket(state, request, now);
        };
        check.banLeft = Math.max(state.bannedUntil - now, 0);
        return check;
    }

    private static Check fixedWindow(State state, LimitRequest request, long now) {
        Limit limit = request.limit();
        CalendarWindow calendar = limit.calendar();
        long end;
        if (calendar != null && limit.zone() != null) {
            end = calendar.end(Instant.ofEpochMilli(now), limit.zone()).toEpochMilli();
        }
        else {
            long window = limit.window().toMillis();
            end = (Math.floorDiv(now, window) + 1) * window;
        }
        long count = (state.window == end) ? state.count : 0;
        Check check = new Check(count, (count > 0) ? end - now : 0, count + request.cost() <= limit.max());
        check.retry = end - now;
        check.window = end;
        check.alertUntil = end;
        return check;
    }

    /**
     * Two counts per key, windows aligned on multiples of their length. The sliding window weighs
     * the previous count by how much of it the last window still overlaps, as its script does; the
     * sliding log counts it whole, so that no window of the limit's length ever holds more than max.
     */
    private static Check slidingWindow(State state, LimitRequest request, long now) {
        Limit limit = request.limit();
        long w = limit.window().toMillis();
        long index = Math.floorDiv(now, w);
        long elapsed = now - index * w;
        long current = (state.window == index) ? state.count : 0;
        long previous = (state.window == index) ? state.previous : (state.window == index - 1) ? state.count : 0;
        boolean log = limit.algorithm() == Algorithm.SLIDING_LOG;
        long previousWeight = log ? w : w - elapsed;
        long weighted = previous * previousWeight + current * w;
        // the sliding log's count is gone once both windows have left
        long reset = (weighted == 0) ? 0 : ((current > 0 && log) ? 2 * w : w) - elapsed;
        Check check = new Check(weighted / w, reset, weighted + request.cost() * w <= limit.max() * w);
        // room once the previous window has left: next window, or the one after if this one is full too
        check.retry = ((current + request.cost() <= limit.max()) ? w : 2 * w) - elapsed;
        if (!log && previous > 0 && limit.max() - current - request.cost() >= 0) {
            // the sliding window's previous weight shrinks as the window goes on
            long room = limit.max() - current - request.cost();
            check.retry = Math.max((w - Math.floorDiv(room * w, previous)) - elapsed, 1);
        }
        check.window = index;
        check.previous = previous;
        check.current = current;
        check.alertUntil = now + w;
        return check;
    }

    /** Tokens in use, in tokens x window milliseconds, as the script keeps them: integers only. */
    private static Check tokenBucket(State state, LimitRequest request, long now) {
        Limit limit = request.limit();
        long w = limit.window().toMillis();
        long capacity = limit.capacity() * w;
        long used = 0;
        if (state.window != 0) {
            long elapsed = Math.min(Math.max(now - state.window, 0), ceilDiv(capacity, limit.max()));
            used = Math.max(state.count - elapsed * limit.max(), 0);
        }
        long level = capacity - used;
        long need = request.cost() * w;
        Check check = new Check(ceilDiv(used, w), ceilDiv(used, limit.max()), level >= need);
        check.retry = Math.max(ceilDiv(need - level, limit.max()), 1);
        check.current = used;
        check.alertUntil = now + w;
        return check;
    }

    private static Decision decide(State state, Check check, LimitRequest request, boolean allFit, long now) {
        Limit limit = request.limit();
        String id = request.limitId();
        Decision decision;
        if (check.banLeft > 0) {
            decision = Decision.ban(id, request.key(), limit.max(), check.count, Duration.ofMillis(check.banLeft),
                    Duration.ofMillis(check.reset));
        }
        else if (!check.fits && limit.banFor() != null) {
            state.bannedUntil = now + limit.banFor().toMillis();
            state.expiresAt = Math.max(state.expiresAt, state.bannedUntil);
            decision = Decision.ban(id, request.key(), limit.max(), check.count, limit.banFor(),
                    Duration.ofMillis(check.reset)).withBanStarted();
        }
        else if (!check.fits) {
            decision = Decision.reject(id, request.key(), limit.max(), check.count,
                    Duration.ofMillis(Math.max(check.retry, 1)), Duration.ofMillis(check.reset));
        }
        else if (!allFit) {
            // allowed by this limit, refused by another: nothing counted
            decision = Decision.reject(id, request.key(), limit.max(), check.count, Duration.ZERO,
                    Duration.ofMillis(check.reset));
        }
        else {
            decision = counted(state, check, request, now);
        }
        if (limit.burst() > 0) {
            // a burst's bucket holds more than a window's max: what is left is what it holds
            decision = new Decision(id, decision.key(), decision.outcome(), decision.limit(), decision.count(),
                    Math.max(limit.burst() - decision.count(), 0), decision.retryAfter(), decision.resetAfter(),
                    decision.alertRaised(), decision.banStarted(), false, false);
        }
        return ((limit.mode() == Limit.Mode.SHADOW) ? decision.inShadow() : decision).locally();
    }

    /** Counts an allowed call, and raises the window's alert if it is the first past alertAt. */
    private static Decision counted(State state, Check check, LimitRequest request, long now) {
        Limit limit = request.limit();
        long count = check.count;
        long reset = check.reset;
        if (request.cost() > 0) {
            switch (limit.algorithm()) {
                case FIXED_WINDOW -> {
                    state.window = check.window;
                    state.count = check.count + request.cost();
                    count = state.count;
                    reset = check.retry;
                    state.expiresAt = Math.max(state.expiresAt, check.window);
                }
                case SLIDING_WINDOW, SLIDING_LOG -> {
                    long w = limit.window().toMillis();
                    long elapsed = now - check.window * w;
                    state.window = check.window;
                    state.count = check.current + request.cost();
                    state.previous = check.previous;
                    long previousWeight = (limit.algorithm() == Algorithm.SLIDING_LOG) ? w : w - elapsed;
                    count = (state.previous * previousWeight + state.count * w) / w;
                    reset = ((limit.algorithm() == Algorithm.SLIDING_LOG) ? 2 * w : w) - elapsed;
                    state.expiresAt = Math.max(state.expiresAt, (check.window + 2) * w);
                }
                case TOKEN_BUCKET -> {
                    long w = limit.window().toMillis();
                    state.count = check.current + request.cost() * w;
                    state.window = now;
                    count = ceilDiv(state.count, w);
                    reset = ceilDiv(state.count, limit.max());
                    state.expiresAt = Math.max(state.expiresAt, now + reset);
                }
            }
        }
        Decision decision = Decision.allow(request.limitId(), request.key(), limit.max(), count,
                Duration.ofMillis(reset));
        if (limit.alertAt() > 0 && check.count <= limit.alertAt() && count > limit.alertAt()
                && now >= state.alertedUntil) {
            state.alertedUntil = check.alertUntil;
            decision = decision.withAlertRaised();
        }
        return decision;
    }

    private static long ceilDiv(long x, long y) {
        return -Math.floorDiv(-x, y);
    }

    /** A limit and key counted locally. */
    private record Key(String limitId, String key) {
    }

    /** What one limit and key counted: the fields each algorithm uses. */
    private static final class State {

        private final Limit limit;

        // the fixed window's end, the sliding windows' index, the token bucket's last call (ms)
        private long window;

        // the window's count, or the tokens in use (tokens x window ms)
        private long count;

        // the sliding windows' previous count
        private long previous;

        private long bannedUntil;

        // the end of the window whose alert was raised
        private long alertedUntil;

        // when nothing of it counts any longer
        private long expiresAt;

        State(Limit limit) {
            this.limit = limit;
        }

    }

    /** One limit's view of a call, before anything is counted. */
    private static final class Check {

        private final long count;

        private final long reset;

        private final boolean fits;

        private long retry;

        private long banLeft;

        private long window;

        private long previous;

        private long current;

        private long alertUntil;

        Check(long count, long reset, boolean fits) {
            this.count = count;
            this.reset = reset;
            this.fits = fits;
        }

    }

}
