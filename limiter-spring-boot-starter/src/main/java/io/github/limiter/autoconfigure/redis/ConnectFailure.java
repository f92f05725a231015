package io.github.limiter.autoconfigure.redis;

import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLException;

import org.jspecify.annotations.Nullable;

/**
 * Why the limiter could not connect to Redis, in few words for one log line: the client libraries
 * wrap the reason in layers of their own ({@code Unable to connect to Redis}).
 */
final class ConnectFailure {

    private ConnectFailure() {
    }

    /**
     * The failure in few words: an unknown host or a failed TLS handshake as such, else the
     * innermost message of its causes (or, for a failure without a cause, of the first failure it
     * suppressed), which names what failed ({@code Connection refused}, {@code WRONGPASS ...}, a
     * timeout), with the kind of the innermost cause when that has no message of its own.
     */
    static String describe(Throwable failure) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable cause = failure; cause != null && !causes.contains(cause); cause = causeOf(cause)) {
            causes.add(cause);
        }
        String message = String.valueOf(failure.getMessage());
        for (Throwable cause : causes) {
            if (cause instanceof UnknownHostException) {
                return "unknown host: " + cause.getMessage();
            }
            if (cause instanceof SSLException || cause instanceof GeneralSecurityException) {
                return "TLS: " + cause.getMessage();
            }
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                message = cause.getMessage();
            }
        }
        Throwable root = causes.get(causes.size() - 1);
        return (root.getMessage() == null) ? message + " (" + root.getClass().getSimpleName() + ")" : message;
    }

    // a client that tried several addresses (Jedis, Lettuce's cluster topology) keeps each failure suppressed
    private static @Nullable Throwable causeOf(Throwable failure) {
        if (failure.getCause() != null) {
            return failure.getCause();
        }
        Throwable[] suppressed = failure.getSuppressed();
        return (suppressed.length > 0) ? suppressed[0] : null;
    }

}
