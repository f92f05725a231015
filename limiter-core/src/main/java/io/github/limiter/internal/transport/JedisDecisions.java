package io.github.limiter.internal.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisExceptionConverter;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * How decisions run with Jedis, which has no asynchronous commands: on as many threads of the
 * limiter's as the pool has connections, their callers waiting at most the connection's read
 * timeout, while the script's command reads for {@link ScriptRunner#LATE_REPLY_WINDOW} longer,
 * on a connection whose own timeout is put back afterwards: a reply slower than the timeout is
 * still read, rather than lost with a connection closed on it (and Redis drops the unread commands
 * of a client that closed, so the script would not even run).
 *
 * <p>Spring Data Redis hands out one {@link Jedis} per connection (Spring Data Redis 3.x) or one
 * shared {@link RedisClient} that borrows a pooled connection per command (4.x); the script's
 * command then borrows its own, to read it longer. Redis Cluster's connection is neither and keeps
 * its timeout: there, a reply after the timeout is lost. Touched only with Jedis on the classpath.
 */
public final class JedisDecisions {

    /** The threads for a pool with no bound on its connections. */
    private static final int UNBOUNDED_POOL_THREADS = 64;

    // Jedis 7 and later; Spring Boot 3.5 brings Jedis 6, whose pooled connections are Jedis
    private static final boolean REDIS_CLIENT_PRESENT = ClassUtils.isPresent("redis.clients.jedis.RedisClient",
            JedisDecisions.class.getClassLoader());

    private JedisDecisions() {
    }

    public static OffloadedScriptRunner runner(StringRedisTemplate redis, JedisConnectionFactory jedis) {
        Duration timeout = jedis.getClientConfiguration().getReadTimeout();
        GenericObjectPoolConfig<?> pool = jedis.getPoolConfig();
        int connections = (pool == null) ? OffloadedScriptRunner.THREADS
                : (pool.getMaxTotal() > 0) ? pool.getMaxTotal() : UNBOUNDED_POOL_THREADS;
        return new OffloadedScriptRunner(
                new BlockingScriptRunner(redis, timeout.plus(ScriptRunner.LATE_REPLY_WINDOW)), connections,
                timeout);
    }

    /**
     * Runs the script's {@code EVALSHA} (and {@code EVAL} if Redis lost the script) reading its reply
     * with the given timeout, where the connection allows; as the template would, elsewhere.
     */
    static @Nullable List<?> evalSha(RedisConnection connection, RedisScript<List<Long>> script, byte[][] keysAndArgs,
            int numKeys, Duration readTimeout, ScriptCall call) {
        Object nativeConnection = connection.getNativeConnection();
        if (nativeConnection instanceof Jedis jedis) {
            Connection socket = jedis.getConnection();
            int own = socket.getSoTimeout();
            socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
            try {
                call.sending();
                return BlockingScriptRunner.evalSha(connection, script, keysAndArgs, numKeys);
            }
            finally {
                // a connection the command broke is closed by the pool, not used again
                if (!socket.isBroken()) {
                    socket.setSoTimeout(own);
                }
            }
        }
        if (REDIS_CLIENT_PRESENT && Clients.pooled(nativeConnection)) {
            return Clients.evalSha((RedisClient) nativeConnection, script, keysAndArgs, numKeys, readTimeout, call);
        }
        call.sending();
        return BlockingScriptRunner.evalSha(connection, script, keysAndArgs, numKeys);
    }

    /** Jedis 7's shared client: the script's command borrows a connection of the client's pool. */
    private static final class Clients {

        private static final CommandObjects COMMANDS = new CommandObjects();

        private static final JedisExceptionConverter ERRORS = new JedisExceptionConverter();

        static boolean pooled(Object nativeConnection) {
            return nativeConnection instanceof RedisClient;
        }

        static List<?> evalSha(RedisClient client, RedisScript<List<Long>> script, byte[][] keysAndArgs, int numKeys,
                Duration readTimeout, ScriptCall call) {
            try (Connection socket = client.getPool().getResource()) {
                int own = socket.getSoTimeout();
                socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
                try {
                    call.sending();
                    return run(socket, script, keysAndArgs, numKeys);
                }
                finally {
                    if (!socket.isBroken()) {
                        socket.setSoTimeout(own);
                    }
                }
            }
            catch (RuntimeException ex) {
                throw translate(ex);
            }
        }

        private static List<?> run(Connection socket, RedisScript<List<Long>> script, byte[][] keysAndArgs,
                int numKeys) {
            Object reply;
            try {
                reply = socket.executeCommand(COMMANDS.evalsha(script.getSha1().getBytes(StandardCharsets.US_ASCII),
                        numKeys, keysAndArgs));
            }
            catch (RuntimeException ex) {
                if (!ScriptRunner.isNoScript(ex)) {
                    throw ex;
                }
                // the script cache was lost (restart, failover, SCRIPT FLUSH): this run did not happen
                reply = socket.executeCommand(COMMANDS.eval(
                        script.getScriptAsString().getBytes(StandardCharsets.UTF_8), numKeys, keysAndArgs));
            }
            if (!(reply instanceof List<?> list)) {
                throw new IllegalStateException("Unexpected reply from the limiter script: " + reply);
            }
            return list;
        }

        private static RuntimeException translate(RuntimeException ex) {
            if (ex instanceof DataAccessException || ex instanceof IllegalStateException) {
                return ex;
            }
            DataAccessException translated = ERRORS.convert(ex);
            return (translated != null) ? translated : new RedisSystemException("Redis exception", ex);
        }

    }

}
