package io.github.limiter.autoconfigure.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * {@code INFO} from the master of a Lettuce connection that reads from replicas
 * ({@code spring.data.redis.lettuce.read-from} over Sentinel or master/replica): Lettuce sends the
 * commands it knows to be read-only, {@code INFO} among them, to a replica, whose
 * {@code maxmemory-policy} may not be the master's, and which evicts nothing of its own. The same
 * command under a name of its own is not on Lettuce's read-only list, so it goes where the
 * limiter's scripts go.
 */
final class LettuceMasterInfo {

    private static final ProtocolKeyword INFO = new ProtocolKeyword() {

        private final byte[] bytes = "INFO".getBytes(StandardCharsets.US_ASCII);

        @Override
        public byte[] getBytes() {
            return this.bytes;
        }

        @Override
        public String toString() {
            return "INFO";
        }

    };

    private static final LettuceExceptionConverter ERRORS = new LettuceExceptionConverter();

    private LettuceMasterInfo() {
    }

    /**
     * Sends {@code INFO} (its default sections) on Lettuce's asynchronous commands.
     * @return the reply as properties, or {@code null} if the connection is not Lettuce's
     */
    @SuppressWarnings("unchecked")
    static @Nullable Properties read(Object nativeConnection, Duration timeout) {
        if (!(nativeConnection instanceof RedisClusterAsyncCommands<?, ?> async)) {
            return null;
        }
        RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) async;
        try {
            String reply = commands
                .dispatch(INFO, new StatusOutput<>(ByteArrayCodec.INSTANCE), new CommandArgs<>(ByteArrayCodec.INSTANCE))
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return properties(reply);
        }
        catch (TimeoutException ex) {
            throw new QueryTimeoutException("Redis did not answer INFO within " + timeout.toMillis() + " ms", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RedisSystemException("Interrupted while waiting for INFO", ex);
        }
        catch (ExecutionException ex) {
            throw translate(ex.getCause());
        }
    }

    private static Properties properties(String reply) {
        Properties properties = new Properties();
        reply.lines().filter(line -> !line.isEmpty() && !line.startsWith("#")).forEach(line -> {
            int colon = line.indexOf(':');
            if (colon > 0) {
                properties.setProperty(line.substring(0, colon), line.substring(colon + 1));
            }
        });
        return properties;
    }

    private static RuntimeException translate(@Nullable Throwable failure) {
        if (failure instanceof DataAccessException dataAccess) {
            return dataAccess;
        }
        if (failure instanceof Exception exception) {
            DataAccessException translated = ERRORS.convert(exception);
            return (translated != null) ? translated : new RedisSystemException("INFO failed", exception);
        }
        return new RedisSystemException("INFO failed", failure);
    }

}
