package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
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
 */
final class BlockingScriptRunner implements ScriptRunner {

    private final StringRedisTemplate redis;

    BlockingScriptRunner(StringRedisTemplate redis) {
        this.redis = redis;
    }

    @Override
    public CompletableFuture<List<Long>> run(DecisionCall call) {
        try {
            return CompletableFuture.completedFuture(runHere(call));
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /** Runs the call on this thread; throws what fails. */
    List<Long> runHere(DecisionCall call) {
        byte[][] keysAndArgs = call.keysAndArgs();
        // exposeConnection: the callback is ours and keeps no reference, so no proxy is needed
        RedisScript<List<Long>> script = call.script();
        List<?> reply = this.redis.execute(
                (RedisCallback<List<?>>) connection -> evalSha(connection, script, keysAndArgs, call.numKeys()), true);
        return ScriptRunner.numbers(reply, call);
    }

    private static @Nullable List<?> evalSha(RedisConnection connection, RedisScript<List<Long>> script,
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
