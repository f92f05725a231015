package io.github.limiter.interceptor;

import java.time.Duration;
import java.time.Instant;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;

/**
 * How {@link LocalLimits} counts one limit and key in memory, as the decision script counts it in
 * Redis: {@link #check} reads what a call would meet, {@link #decide} counts it if every limit of
 * the call let it through, and bans or raises the alert as the limit says. Fixed windows, calendar
 * periods and the token bucket count as in Redis; the sliding window is the same weighted estimate
 * of two counts, and the sliding log two counts with the previous window's counted whole.
 */
final class LocalCounts {

    private LocalCounts() {
    }

    static Check check(State state, LimitRequest request, long now) {
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

    static Decision decide(State state, Check check, LimitRequest request, boolean allFit, long now) {
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

    /** What one limit and key counted: the fields each algorithm uses. */
    static final class State {

        final Limit limit;

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
        long expiresAt;

        State(Limit limit) {
            this.limit = limit;
        }

    }

    /** One limit's view of a call, before anything is counted. */
    static final class Check {

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

        /** Whether the limit refuses the call: its key is banned, or the call does not fit. */
        boolean refuses() {
            return this.banLeft > 0 || !this.fits;
        }

    }

}
