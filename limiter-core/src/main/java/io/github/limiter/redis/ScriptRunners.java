package io.github.limiter.redis;

import io.github.limiter.internal.transport.BlockingScriptRunner;
import io.github.limiter.internal.transport.Deadlines;
import io.github.limiter.internal.transport.JedisDecisions;
import io.github.limiter.internal.transport.LettuceScriptRunner;
import io.github.limiter.internal.transport.OffloadedScriptRunner;
import io.github.limiter.internal.transport.ScriptRunner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * What a limiter's script calls run on, chosen once from the template's connection factory: with
 * Lettuce's shared connection, its asynchronous commands (coalesced unless {@code maxBatch} is 1);
 * with Jedis, a reader that keeps the limiter's deadline; with any other client, the blocking
 * runner offloaded to a few threads.
 *
 * @param blocking runs a script call on the calling thread
 * @param forAsyncDecisions runs a decision's script call without blocking the calling thread
 * @param forBlockingDecisions what a blocking decision runs: the blocking runner, or the non-blocking one
 * waited for on the calling thread
 * @param lettuce the Lettuce runner, which prepares its connection at start, or {@code null}
 * @param cluster whether the factory connects to Redis Cluster
 */
record ScriptRunners(BlockingScriptRunner blocking, ScriptRunner<? super DecisionArguments> forAsyncDecisions,
        ScriptRunner<? super DecisionArguments> forBlockingDecisions,
        @Nullable LettuceScriptRunner lettuce, boolean cluster) implements AutoCloseable {

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            ScriptRunners.class.getClassLoader());

    private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis",
            ScriptRunners.class.getClassLoader());

    static ScriptRunners of(StringRedisTemplate redis, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, not " + maxBatch);
        }
        RedisConnectionFactory factory = redis.getConnectionFactory();
        boolean cluster = isCluster(factory);
        BlockingScriptRunner blocking = new BlockingScriptRunner(redis);
        if (sharesLettuceConnection(factory)) {
            Duration timeout = LettuceScriptRunner.commandTimeout((LettuceConnectionFactory) factory);
            LettuceScriptRunner lettuce = new LettuceScriptRunner(redis, timeout, new Deadlines());
            ScriptRunner<? super DecisionArguments> nonBlocking = (maxBatch > 1) ? new CoalescingScriptRunner(lettuce, maxBatch, cluster, timeout)
                    : lettuce;
            return new ScriptRunners(blocking, nonBlocking, waitingFor(nonBlocking), lettuce, cluster);
        }
        if (JEDIS_PRESENT && factory instanceof JedisConnectionFactory jedis) {
            ScriptRunner<? super DecisionArguments> nonBlocking = JedisDecisions.runner(redis, jedis);
            // Redis Cluster's connection cannot read one command longer: nothing to gain off the caller's thread
            ScriptRunner<? super DecisionArguments> waiting = jedis.isRedisClusterAware() ? blocking : waitingFor(nonBlocking);
            return new ScriptRunners(blocking, nonBlocking, waiting, null, cluster);
        }
        ScriptRunner<? super DecisionArguments> offloaded = new OffloadedScriptRunner(blocking, OffloadedScriptRunner.THREADS, null);
        return new ScriptRunners(blocking, offloaded, blocking, null, cluster);
    }

    /**
     * Stops what the runners started: the Lettuce runners' timer (a call still waiting fails at
     * once), the threads of the runner for other clients.
     */
    @Override
    public void close() {
        if (this.lettuce != null) {
            this.lettuce.deadlines().close();
        }
        if (this.forAsyncDecisions instanceof OffloadedScriptRunner offloaded) {
            offloaded.close();
        }
    }

    /** The coalescing runner, if decisions are coalesced. */
    @Nullable CoalescingScriptRunner coalescing() {
        return (this.forAsyncDecisions instanceof CoalescingScriptRunner coalescing) ? coalescing : null;
    }

    // the calling thread waits for a runner that keeps the limiter's deadline itself, so that what
    // follows the script (memory, listeners) runs on it, as it does with the blocking runner
    private static ScriptRunner<DecisionArguments> waitingFor(ScriptRunner<? super DecisionArguments> runner) {
        return call -> {
            try {
                return CompletableFuture.completedFuture(runner.run(call).join());
            }
            catch (CompletionException ex) {
                return CompletableFuture.failedFuture(DecisionEngine.unwrap(ex));
            }
        };
    }

    // each client library is looked at only when it is there: either may be missing
    private static boolean isCluster(@Nullable RedisConnectionFactory factory) {
        if (LETTUCE_PRESENT && factory instanceof LettuceConnectionFactory lettuce) {
            return lettuce.isClusterAware();
        }
        return JEDIS_PRESENT && factory instanceof JedisConnectionFactory jedis && jedis.isRedisClusterAware();
    }

    // the asynchronous commands of a shared connection outlive the connection object they come from
    private static boolean sharesLettuceConnection(@Nullable RedisConnectionFactory factory) {
        return LETTUCE_PRESENT && factory instanceof LettuceConnectionFactory lettuce
                && lettuce.getShareNativeConnection();
    }

}
