package io.github.limiter.internal.transport;

import io.github.limiter.redis.RedisRateLimiter;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Why Redis could not decide: what log lines, meters and health name, so that an operator can tell
 * an unreachable Redis from one that answers with an error. A reachable Redis answers errors with a
 * code ({@code OOM}, {@code NOPERM}, {@code READONLY}, ...), also from inside a script; everything
 * else is a connection failure, a timeout, or too many decisions waiting. Other packages see its
 * tags, through {@link RedisRateLimiter.Failure#kind()} and {@link RedisRateLimiter.FailureStreak#kind()}.
 */
public enum FailureKind {

    /** Redis cannot be reached: refused, closed, or not connected yet. */
    CONNECTION("cannot reach Redis"),

    /** Redis did not answer within the limiter's timeout. */
    TIMEOUT("Redis did not answer within the timeout"),

    /** Redis is at {@code maxmemory} and refuses writes ({@code OOM}, under {@code noeviction}). */
    OOM("Redis is out of memory and refuses writes (maxmemory reached)"),

    /** The Redis user may not run a command, or use a key or channel ({@code NOPERM}). */
    NOPERM("the Redis user lacks a permission the limiter needs"),

    /** Redis refused the credentials ({@code NOAUTH}, {@code WRONGPASS}). */
    AUTH("Redis refused the limiter's credentials"),

    /** The server is a read-only replica ({@code READONLY}): a failover under way, or a replica's address. */
    READONLY("Redis answered as a read-only replica"),

    /** Redis is busy running a long script or function ({@code BUSY}). */
    BUSY("Redis is busy running a long script"),

    /** Redis is loading its data set into memory ({@code LOADING}). */
    LOADING("Redis is loading its data set"),

    /** A limiter key holds a value of another type ({@code WRONGTYPE}). */
    WRONGTYPE("a limiter key holds a value of another type"),

    /**
     * The cluster or replication cannot serve the key now ({@code CLUSTERDOWN}, {@code MASTERDOWN},
     * {@code TRYAGAIN}, {@code MOVED}, {@code ASK}).
     */
    CLUSTER("the cluster cannot serve the key now"),

    /** More decisions wait for Redis than the limiter lets wait: a full request queue or pool. */
    OVERLOADED("too many decisions wait for Redis"),

    /** Any other failure. */
    OTHER("Redis failed");

    // the codes Redis starts an error with, found also inside a script's error ("... -OOM ...")
    private static final Pattern CODE = Pattern.compile(
            "(?:^|[\\s:(\\-])(OOM|NOPERM|NOAUTH|WRONGPASS|READONLY|BUSY|LOADING|WRONGTYPE|CLUSTERDOWN|MASTERDOWN"
                    + "|TRYAGAIN|MOVED|ASK)\\b");

    // Redis 6.2 words a script's permission errors without the code
    private static final String SCRIPT_PERMISSION = "The user executing the script can't";

    private final String description;

    FailureKind(String description) {
        this.description = description;
    }

    /**
     * Returns what this kind of failure means, for log lines and health details.
     * @return a short description, such as "cannot reach Redis"
     */
    public String description() {
        return this.description;
    }

    /**
     * Returns this kind's lower-case name, as meters tag it.
     * @return such as {@code "oom"}
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Tells the kind of a failure from the failure and its causes: an error code Redis answered
     * wins over the exception's type, since a client wraps Redis's answer in exceptions of its own.
     * @param failure what the client or the limiter threw
     * @return its kind, {@link #OTHER} if none fits
     */
    public static FailureKind of(Throwable failure) {
        if (failure instanceof RedisPermissionException) {
            return NOPERM;
        }
        FailureKind answered = answeredByRedis(failure);
        if (answered != null) {
            return answered;
        }
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (cause instanceof QueryTimeoutException || cause instanceof SocketTimeoutException
                    || cause instanceof TimeoutException || named(cause, "io.lettuce.core.RedisCommandTimeoutException")) {
                return TIMEOUT;
            }
        }
        // before connection failures: a client may wrap a full queue or pool in one
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            String message = String.valueOf(cause.getMessage());
            if (message.contains("Request queue size exceeded") || message.contains("decisions waiting for Redis")
                    || message.contains("Timeout waiting for idle object") || message.contains("Pool exhausted")) {
                return OVERLOADED;
            }
        }
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (isConnection(cause)) {
                return CONNECTION;
            }
        }
        return OTHER;
    }

    /**
     * Returns the message of Redis's own error answer in a failure, or of the failure itself if
     * Redis answered none: the line to show an operator. The limiter's own message (such as "Rate
     * limiting has not connected to Redis at ... yet (...)") is kept whole.
     * @param failure what the client or the limiter threw
     * @return the most telling message
     */
    public static String messageOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            String message = cause.getMessage();
            if (message == null) {
                continue;
            }
            if (message.startsWith("Rate limiting ")) {
                // the limiter's own words, which name where it looked and why it failed
                return message;
            }
            Matcher code = CODE.matcher(message);
            if (code.find()) {
                // Redis 6.2 wraps a script's error: "ERR Error running script (...): @user_script:78: -OOM ..."
                return message.substring(code.start(1)).strip();
            }
            if (message.contains(SCRIPT_PERMISSION)) {
                return message;
            }
        }
        Throwable deepest = failure;
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (cause.getMessage() != null) {
                deepest = cause;
            }
        }
        return (deepest.getMessage() != null) ? deepest.getMessage() : deepest.getClass().getSimpleName();
    }

    private static @Nullable FailureKind answeredByRedis(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            String message = cause.getMessage();
            if (message == null) {
                continue;
            }
            if (message.contains(SCRIPT_PERMISSION)) {
                return NOPERM;
            }
            Matcher code = CODE.matcher(message);
            if (code.find()) {
                return switch (code.group(1)) {
                    case "OOM" -> OOM;
                    case "NOPERM" -> NOPERM;
                    case "NOAUTH", "WRONGPASS" -> AUTH;
                    case "READONLY" -> READONLY;
                    case "BUSY" -> BUSY;
                    case "LOADING" -> LOADING;
                    case "WRONGTYPE" -> WRONGTYPE;
                    default -> CLUSTER;
                };
            }
        }
        return null;
    }

    private static boolean isConnection(Throwable cause) {
        if (cause instanceof RedisConnectionFailureException || cause instanceof ConnectException
                || cause instanceof UnknownHostException || cause instanceof ClosedChannelException
                || named(cause, "io.lettuce.core.RedisConnectionException")
                || named(cause, "redis.clients.jedis.exceptions.JedisConnectionException")) {
            return true;
        }
        String message = String.valueOf(cause.getMessage());
        return message.contains("not connected") || message.contains("Connection closed")
                || message.contains("Connection disconnected")
                || message.contains("Connection is closed") || message.contains("has not connected to Redis");
    }

    private static boolean named(Throwable cause, String className) {
        for (Class<?> type = cause.getClass(); type != null; type = type.getSuperclass()) {
            if (type.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    private static @Nullable Throwable next(Throwable cause) {
        Throwable next = cause.getCause();
        return (next != cause) ? next : null;
    }

}
