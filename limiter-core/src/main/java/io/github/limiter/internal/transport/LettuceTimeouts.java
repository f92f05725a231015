package io.github.limiter.internal.transport;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.protocol.RedisCommand;
import org.jspecify.annotations.Nullable;

/**
 * The Lettuce command timeouts of a connection the limiter decides over: every command expires
 * after the limiter's timeout, except the decision script's own, which Lettuce keeps for
 * {@link ScriptRunner#LATE_REPLY_WINDOW} longer. The limiter itself ends a caller's wait at the
 * timeout (the call then follows its on-failure setting); a decision Redis makes after that is
 * still read, and its alerts and bans reported ({@link io.github.limiter.RateLimitListener#onLateDecision}).
 * Without these options (a connection factory of your own, with a plain command timeout), Lettuce
 * drops a reply that comes after the timeout, and its alerts and bans go unreported.
 *
 * <p>The Spring Boot starter sets them on the limiter's own connection. Admin reads and writes, the
 * health probe and every other command keep the limiter's timeout.
 *
 * @since 0.1.0
 */
public final class LettuceTimeouts {


    private LettuceTimeouts() {
    }

    /**
     * Returns the timeout options of a connection the limiter decides over.
     * @param timeout how long any command may take: {@code limiter.redis.timeout}
     * @return the options, for {@code ClientOptions.Builder.timeoutOptions}
     */
    public static TimeoutOptions options(Duration timeout) {
        return options(timeout, ScriptRunner.LATE_REPLY_WINDOW);
    }

    public static TimeoutOptions options(Duration timeout, Duration lateReplyWindow) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, not " + timeout);
        }
        return TimeoutOptions.builder().timeoutSource(new Source(timeout, lateReplyWindow)).build();
    }

    /** The limiter's timeout for every command, that plus the late window for the decision script's. */
    private static final class Source extends TimeoutOptions.TimeoutSource {

        private final long timeoutNanos;

        private final long decisionNanos;

        Source(Duration timeout, Duration lateReplyWindow) {
            this.timeoutNanos = timeout.toNanos();
            this.decisionNanos = timeout.plus(lateReplyWindow).toNanos();
        }

        // a null command (asked before any is known) gets the plain timeout, the one callers wait for
        @Override
        public long getTimeout(@Nullable RedisCommand<?, ?, ?> command) {
            return (command != null && command.getType() instanceof DecisionCommand) ? this.decisionNanos
                    : this.timeoutNanos;
        }

        @Override
        public TimeUnit getTimeUnit() {
            return TimeUnit.NANOSECONDS;
        }

    }

}
