package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the script with Lettuce's asynchronous commands on the template's shared native connection:
 * the caller's thread only writes the command, and the future completes on Lettuce's I/O thread
 * when the reply arrives, or fails when the connection's command timeout expires, or at once while
 * the connection is down and rejects commands.
 *
 * <p>The native commands are looked up once, through the template (so a template that fails fast
 * before the first connection does so here too), and kept: the shared connection reconnects by
 * itself; only a closed one is looked up again.
 */
final class LettuceScriptRunner implements ScriptRunner {

    private static final LettuceExceptionConverter ERRORS = new LettuceExceptionConverter();

    private final StringRedisTemplate redis;

    private volatile @Nullable RedisClusterAsyncCommands<byte[], byte[]> commands;

    LettuceScriptRunner(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * The time after which Lettuce fails a command of the factory's connections: the client
     * options' fixed command timeout when they have one (the starter's connection does), else the
     * configuration's command timeout.
     */
    static Duration commandTimeout(LettuceConnectionFactory factory) {
        LettuceClientConfiguration configuration = factory.getClientConfiguration();
        Duration fallback = configuration.getCommandTimeout();
        TimeoutOptions options = configuration.getClientOptions().map(ClientOptions::getTimeoutOptions).orElse(null);
        if (options == null || !options.isTimeoutCommands()) {
            return fallback;
        }
        try {
            // a fixed timeout source ignores the command
            long timeout = options.getSource().getTimeout(null);
            return (timeout > 0) ? Duration.of(timeout, options.getSource().getTimeUnit().toChronoUnit()) : fallback;
        }
        catch (RuntimeException ex) {
            return fallback;
        }
    }

    /**
     * Looks the native commands up now, so that the first asynchronous decisions do not: the
     * look-up takes the connection factory's lock, which an event-loop thread must not wait for.
     */
    void prepare() {
        commands();
    }

    @Override
    public CompletableFuture<List<Long>> run(DecisionCall call) {
        byte[][] keysAndArgs = call.keysAndArgs();
        byte[][] keys = Arrays.copyOf(keysAndArgs, call.numKeys());
        byte[][] args = Arrays.copyOfRange(keysAndArgs, call.numKeys(), keysAndArgs.length);
        return send(call.script(), keys, args).thenApply(reply -> ScriptRunner.numbers(reply, call));
    }

    /**
     * Sends a script with its keys and arguments: {@code EVALSHA}, then {@code EVAL} once if Redis
     * has lost the script.
     * @return the reply as Lettuce reads it; failed with Spring's translation of Lettuce's failure
     */
    CompletableFuture<List<?>> send(RedisScript<List<Long>> script, byte[][] keys, byte[][] args) {
        CompletableFuture<List<?>> result = new CompletableFuture<>();
        try {
            RedisClusterAsyncCommands<byte[], byte[]> commands = commands();
            CompletionStage<List<?>> evalSha = commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keys, args);
            evalSha.whenComplete((reply, ex) -> {
                if (ex == null) {
                    result.complete(reply);
                }
                else if (ScriptRunner.isNoScript(ex)) {
                    // the script cache was lost (restart, failover, SCRIPT FLUSH): this run did not happen
                    commands.<List<?>>eval(text(script), ScriptOutputType.MULTI, keys, args)
                        .whenComplete((again, failure) -> {
                            if (failure == null) {
                                result.complete(again);
                            }
                            else {
                                fail(result, failure);
                            }
                        });
                }
                else {
                    fail(result, ex);
                }
            });
        }
        catch (RuntimeException ex) {
            fail(result, ex);
        }
        return result;
    }

    private void fail(CompletableFuture<?> result, Throwable failure) {
        Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
                : failure;
        if ("Connection is closed".equals(cause.getMessage())) {
            this.commands = null;
        }
        result.completeExceptionally(translate(cause));
    }

    static Throwable translate(Throwable failure) {
        if (failure instanceof DataAccessException || !(failure instanceof Exception exception)) {
            return failure;
        }
        DataAccessException translated = ERRORS.convert(exception);
        return (translated != null) ? translated : new RedisSystemException("Redis exception", exception);
    }

    private static byte[] text(RedisScript<?> script) {
        return script.getScriptAsString().getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private RedisClusterAsyncCommands<byte[], byte[]> commands() {
        RedisClusterAsyncCommands<byte[], byte[]> commands = this.commands;
        if (commands == null) {
            Object nativeConnection = this.redis.execute((RedisCallback<Object>) RedisConnection::getNativeConnection,
                    true);
            if (!(nativeConnection instanceof RedisClusterAsyncCommands<?, ?> async)) {
                throw new IllegalStateException("Expected Lettuce's asynchronous commands, got " + nativeConnection);
            }
            commands = (RedisClusterAsyncCommands<byte[], byte[]>) async;
            this.commands = commands;
        }
        return commands;
    }

}
