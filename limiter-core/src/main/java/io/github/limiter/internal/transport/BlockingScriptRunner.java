package io.github.limiter.internal.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the script through the template on the calling thread, which waits for the reply: any
 * client library, the template's connection handling and error translation. It does what the
 * template's script executor does, minus what costs on every call there: a proxy around the
 * connection, and a {@code String} then a {@code byte[]} per argument.
 *
 * <p>With a read timeout to raise (Jedis, when the decisions run on {@link OffloadedScriptRunner}'s
 * threads and the caller waits no longer than the limiter's timeout), the script's command reads
 * with that one, and the connection goes back to the pool with its own: a reply that comes after the
 * caller stopped waiting is still read, rather than lost with a connection closed on a timeout.
 */
public final class BlockingScriptRunner implements ScriptRunner<ScriptCall> {

    private final StringRedisTemplate redis;

    private final @Nullable Duration readTimeout;

    public BlockingScriptRunner(StringRedisTemplate redis) {
        this(redis, null);
    }

    /**
     * Creates a runner whose commands read with a timeout of their own.
     * @param redis the template
     * @param readTimeout the script's read timeout on a Jedis connection, or {@code null} for the
     * connection's own
     */
    public BlockingScriptRunner(StringRedisTemplate redis, @Nullable Duration readTimeout) {
        this.redis = redis;
        this.readTimeout = readTimeout;
    }

    @Override
    public CompletableFuture<List<Long>> run(ScriptCall call) {
        try {
            return CompletableFuture.completedFuture(runHere(call));
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /** Runs the call on this thread; throws what fails. */
    public List<Long> runHere(ScriptCall call) {
        byte[][] keysAndArgs = call.keysAndArgs();
        // exposeConnection: the callback is ours and keeps no reference, so no proxy is needed
        RedisScript<List<Long>> script = call.script();
        Duration readTimeout = this.readTimeout;
        List<?> reply = this.redis.execute((RedisCallback<List<?>>) connection -> {
            if (readTimeout != null) {
                return JedisDecisions.evalSha(connection, script, keysAndArgs, call.numKeys(), readTimeout, call);
            }
            call.sending();
            return evalSha(connection, script, keysAndArgs, call.numKeys());
        }, true);
        return call.read(reply);
    }

    static @Nullable List<?> evalSha(RedisConnection connection, RedisScript<List<Long>> script,
            byte[][] keysAndArgs, int numKeys) {
        try {
            return connection.scriptingCommands().evalSha(script.getSha1(), ReturnType.MULTI, numKeys, keysAndArgs);
        }
        catch (DataAccessException ex) {
            if (!ScriptRunner.isNoScript(ex)) {
                throw ex;
            }
            // the script cache was lost (restart, failover, SCRIPT FLUSH): this run did not happen
            return connection.scriptingCommands()
                .eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), ReturnType.MULTI, numKeys,
                        keysAndArgs);
        }
    }

}
