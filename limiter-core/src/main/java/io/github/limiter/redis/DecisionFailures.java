package io.github.limiter.redis;

import io.github.limiter.internal.transport.FailureKind;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the decisions that asked Redis met lately: a streak of failures starts with the first
 * failure and ends with the next success. Health reads the streak.
 *
 * <p>The log has one WARN line when a streak starts, naming the failure's kind, one more when its
 * kind changes, and one INFO line when it ends; a permission error is an ERROR. A Redis that fails
 * every other call (latency at the edge of the timeout) would start hundreds of streaks a second,
 * so lines are written at most once every ten seconds: a streak that starts sooner after the last
 * line, with the kind of failure that line named, is logged by a failure ten seconds after it, if
 * it lasts, and its end only if its start was.
 *
 * <p>A success costs one volatile read while nothing fails.
 */
final class DecisionFailures {

    private static final Log logger = LogFactory.getLog(RedisRateLimiter.class);

    private static final long QUIET = TimeUnit.SECONDS.toNanos(10);

    private static final long RECENT = TimeUnit.MINUTES.toNanos(1);

    // what a permission error means for the limiter, and what to grant
    private final UnaryOperator<String> permissionMessage;

    // whether a permission error was logged already, when the limiter connected
    private final BooleanSupplier permissionErrorLogged;

    private volatile @Nullable Streak streak;

    // guarded by this
    private long lastLine = System.nanoTime() - QUIET;

    // guarded by this
    private @Nullable FailureKind lastLoggedKind;

    DecisionFailures(UnaryOperator<String> permissionMessage, BooleanSupplier permissionErrorLogged) {
        this.permissionMessage = permissionMessage;
        this.permissionErrorLogged = permissionErrorLogged;
    }

    void failed(Throwable cause) {
        FailureKind kind = FailureKind.of(cause);
        String message = (kind == FailureKind.NOPERM) ? this.permissionMessage.apply(FailureKind.messageOf(cause))
                : FailureKind.messageOf(cause);
        long now = System.nanoTime();
        Streak current = this.streak;
        if (current != null && current.kind == kind && (current.logged || now - current.lastLogCheck < QUIET)) {
            // the common case while Redis fails: nothing to log
            current.failed(message, now);
            return;
        }
        synchronized (this) {
            current = this.streak;
            if (current == null) {
                current = new Streak(kind, message, now);
                this.streak = current;
            }
            else {
                current.kind = kind;
                current.failed(message, now);
            }
            current.lastLogCheck = now;
            if (kind != this.lastLoggedKind || now - this.lastLine >= QUIET) {
                this.lastLine = now;
                this.lastLoggedKind = kind;
                current.logged = true;
                if (kind != FailureKind.NOPERM || !this.permissionErrorLogged.getAsBoolean()) {
                    log(kind, message);
                }
            }
        }
    }

    void succeeded() {
        Streak current = this.streak;
        if (current == null) {
            return;
        }
        synchronized (this) {
            if (this.streak != current) {
                return;
            }
            this.streak = null;
            if (!current.logged) {
                return;
            }
            this.lastLine = System.nanoTime();
        }
        logger.info("Rate limiting's decisions succeed again (after " + current.count.get() + " failed, the last "
                + current.kind.tag() + "); decisions are exact again");
    }

    /**
     * Ends a streak of permission errors: the check found every permission granted since, so
     * that a grant made while no call is decided is seen at once.
     */
    void permissionsGranted() {
        Streak current = this.streak;
        if (current != null && current.kind == FailureKind.NOPERM) {
            synchronized (this) {
                if (this.streak == current) {
                    this.streak = null;
                }
            }
        }
    }

    /**
     * Returns the streak of failures the latest decisions are in, if its last failure is at most a
     * minute old.
     */
    RedisRateLimiter.@Nullable FailureStreak recent() {
        Streak current = this.streak;
        if (current == null || System.nanoTime() - current.lastFailure.get() > RECENT) {
            return null;
        }
        return new RedisRateLimiter.FailureStreak(current.kind.tag(), current.message, current.since, current.count.get());
    }

    private static void log(FailureKind kind, String message) {
        if (kind == FailureKind.NOPERM) {
            // a configuration error: the message says what to grant
            logger.error("Rate limiting's decisions fail: " + message + "; until they succeed, limited calls follow "
                    + "their on-failure setting (limiter.redis.on-failure)");
            return;
        }
        String what = (kind == FailureKind.CONNECTION) ? "Rate limiting cannot reach Redis"
                : "Rate limiting's decisions fail: " + kind.description();
        logger.warn(what + " (" + kind.tag() + ": " + message + "); until they succeed, limited calls follow their "
                + "on-failure setting (limiter.redis.on-failure)");
    }

    /** One streak of failures: its latest kind and message, as health shows them. */
    private static final class Streak {

        private final Instant since = Instant.now();

        private final AtomicLong count = new AtomicLong(1);

        private final AtomicLong lastFailure;

        private volatile FailureKind kind;

        private volatile String message;

        // whether a line said this streak started
        private volatile boolean logged;

        // when a failure of this streak last looked at whether to log
        private volatile long lastLogCheck;

        Streak(FailureKind kind, String message, long now) {
            this.kind = kind;
            this.message = message;
            this.lastFailure = new AtomicLong(now);
        }

        void failed(String message, long now) {
            this.count.incrementAndGet();
            this.lastFailure.set(now);
            this.message = message;
        }

    }

}
