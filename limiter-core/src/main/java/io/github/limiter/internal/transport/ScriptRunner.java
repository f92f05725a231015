package io.github.limiter.internal.transport;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;


import org.springframework.dao.QueryTimeoutException;

/**
 * Sends one {@link ScriptCall} to Redis, as {@code EVALSHA} and, if Redis has lost the script
 * ({@code NOSCRIPT}), as {@code EVAL}: the script did not run the first time, so it runs once.
 *
 * <p>The limiter has two: one that blocks the calling thread and hands back a completed future,
 * and one that does not block and completes the future when Redis answers. Everything else about a
 * decision is the same code for both.
 */
public interface ScriptRunner<C extends ScriptCall> {

    /**
     * How long after its caller stopped waiting (the timeout) a runner still reads a decision's
     * reply: a decision Redis makes in that time is reported as late
     * ({@code RateLimitListener#onLateDecision}), one made after it is not. With Lettuce over
     * {@link LettuceTimeouts}, and with Jedis outside Redis Cluster. Declared here, where no
     * client's class is loaded with it: a Jedis application has no Lettuce.
     */
    Duration LATE_REPLY_WINDOW = Duration.ofSeconds(10);

    /**
     * Runs the call.
     * @param call the keys and arguments
     * @return the reply; failed with a {@link org.springframework.dao.DataAccessException} if Redis
     * could not be reached or did not answer in time, or an {@link IllegalStateException} if the
     * reply is not what the script returns
     */
    CompletableFuture<List<Long>> run(C call);

    /** The failure of a call whose caller waited as long as it may: the script may still run. */
    static QueryTimeoutException timedOut(Duration timeout) {
        return new QueryTimeoutException(
                "Redis did not decide within the command timeout (" + timeout.toMillis() + " ms)");
    }

    /** Whether a failure, or one of its causes, is Redis's answer that it has lost the script. */
    static boolean isNoScript(Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

}
