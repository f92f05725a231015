package io.github.limiter.internal.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.util.Timeout;
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
 * when the reply arrives, or fails at once while the connection is down and rejects commands.
 *
 * <p>The caller waits at most the limiter's timeout: a deadline on the {@link Deadlines} timer fails
 * its future then. The command itself stays in flight (Lettuce keeps it for the late window of
 * {@link LettuceTimeouts}), and a reply that comes after the deadline is handed to the call as late
 * ({@link ScriptCall#repliedLate}): the script ran, and its alerts and bans are reported. The
 * commands are sent as {@link DecisionCommand}s, so that those options tell them from every other.
 *
 * <p>The native commands are looked up once, through the template (so a template that fails fast
 * before the first connection does so here too), and kept: the shared connection reconnects by
 * itself; only a closed one is looked up again.
 */
public final class LettuceScriptRunner implements ScriptRunner<ScriptCall> {

    private static final LettuceExceptionConverter ERRORS = new LettuceExceptionConverter();

    private final StringRedisTemplate redis;

    private final Duration timeout;

    private final Deadlines deadlines;

    private volatile @Nullable RedisClusterAsyncCommands<byte[], byte[]> commands;

    /**
     * Creates a runner.
     * @param redis the template whose shared native connection the commands go over
     * @param timeout the longest a caller of {@link #run} waits: the limiter's timeout
     * @param deadlines the limiter's timer
     */
    public LettuceScriptRunner(StringRedisTemplate redis, Duration timeout, Deadlines deadlines) {
        this.redis = redis;
        this.timeout = timeout;
        this.deadlines = deadlines;
    }

    /** The limiter's timer, which the coalescing runner shares. */
    public Deadlines deadlines() {
        return this.deadlines;
    }

    /**
     * The time a caller waits for a decision over the factory's connections: the client options'
     * command timeout when they have one (with {@link LettuceTimeouts}, as the starter's connection
     * has, that of every command but the decision script's own), else the configuration's command
     * timeout.
     */
    public static Duration commandTimeout(LettuceConnectionFactory factory) {
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
    public void prepare() {
        commands();
    }

    @Override
    public CompletableFuture<List<Long>> run(ScriptCall call) {
        byte[][] keysAndArgs = call.keysAndArgs();
        byte[][] keys = Arrays.copyOf(keysAndArgs, call.numKeys());
        byte[][] args = Arrays.copyOfRange(keysAndArgs, call.numKeys(), keysAndArgs.length);
        if (this.deadlines.closed()) {
            return CompletableFuture.failedFuture(Deadlines.closedFailure());
        }
        CompletableFuture<List<Long>> result = new CompletableFuture<>();
        Timeout deadline = this.deadlines.fail(result, this.timeout.toNanos(), () -> ScriptRunner.timedOut(this.timeout));
        send(call.script(), keys, args).whenComplete((reply, failure) -> {
            deadline.cancel();
            if (failure != null) {
                if (!result.completeExceptionally(failure)) {
                    call.unansweredLate(failure);
                }
                return;
            }
            List<Long> numbers;
            try {
                numbers = call.read(reply);
            }
            catch (IllegalStateException ex) {
                result.completeExceptionally(ex);
                return;
            }
            if (!result.complete(numbers)) {
                // its caller stopped waiting: the decision stands, and is reported as late
                call.repliedLate(numbers);
            }
        });
        return result;
    }

    /**
     * Sends a script with its keys and arguments: {@code EVALSHA}, then {@code EVAL} once if Redis
     * has lost the script. No deadline but Lettuce's own: the late window, with {@link LettuceTimeouts}.
     * @return the reply as Lettuce reads it; failed with Spring's translation of Lettuce's failure
     */
    public CompletableFuture<List<?>> send(RedisScript<List<Long>> script, byte[][] keys, byte[][] args) {
        CompletableFuture<List<?>> result = new CompletableFuture<>();
        try {
            RedisClusterAsyncCommands<byte[], byte[]> commands = commands();
            CompletionStage<List<Object>> evalSha = commands.dispatch(DecisionCommand.EVALSHA, output(),
                    arguments(script.getSha1().getBytes(StandardCharsets.US_ASCII), keys, args));
            evalSha.whenComplete((reply, ex) -> {
                if (ex == null) {
                    result.complete(reply);
                }
                else if (ScriptRunner.isNoScript(ex)) {
                    // the script cache was lost (restart, failover, SCRIPT FLUSH): this run did not happen
                    commands.dispatch(DecisionCommand.EVAL, output(), arguments(text(script), keys, args))
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

    // as Lettuce's own evalsha and eval build them, with a multi-bulk output
    private static CommandArgs<byte[], byte[]> arguments(byte[] shaOrScript, byte[][] keys, byte[][] args) {
        return new CommandArgs<>(ByteArrayCodec.INSTANCE).add(shaOrScript).add(keys.length).addKeys(keys)
            .addValues(args);
    }

    private static NestedMultiOutput<byte[], byte[]> output() {
        return new NestedMultiOutput<>(ByteArrayCodec.INSTANCE);
    }

    private void fail(CompletableFuture<?> result, Throwable failure) {
        Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
                : failure;
        if ("Connection is closed".equals(cause.getMessage())) {
            this.commands = null;
        }
        result.completeExceptionally(translate(cause));
    }

    public static Throwable translate(Throwable failure) {
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
