package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Limit;
import io.github.limiter.internal.transport.BlockingScriptRunner;
import io.github.limiter.internal.transport.OffloadedScriptRunner;
import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner of clients without asynchronous commands (Jedis) queues at most
 * {@link OffloadedScriptRunner#QUEUE} calls for its threads, without a lock a caller on an event
 * loop could park on: one more fails at once, and those queued are decided once a thread is free.
 */
class OffloadedScriptRunnerIntegrationTests {

    @Test
    void oneCallMoreThanTheQueueHoldsFailsAtOnceAndTheQueuedOnesAreDecided() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start()) {
            LettuceConnectionFactory factory = server.newConnectionFactory();
            StringRedisTemplate redis = new StringRedisTemplate(factory);
            try (OffloadedScriptRunner runner = new OffloadedScriptRunner(new BlockingScriptRunner(redis), 1, null)) {
                Limit limit = Limit.of(1_000_000, Duration.ofMinutes(1));
                // the runner's one thread waits on a paused Redis while the others queue
                server.withCommands(commands -> commands.clientPause(3_000));
                List<CompletableFuture<List<Long>>> accepted = new ArrayList<>();
                CompletableFuture<List<Long>> refused = null;
                while (refused == null && accepted.size() <= OffloadedScriptRunner.QUEUE + 1) {
                    CompletableFuture<List<Long>> decided = runner.run(call(limit));
                    if (decided.isCompletedExceptionally()) {
                        refused = decided;
                    }
                    else {
                        accepted.add(decided);
                    }
                }
                // the queue's calls, and the one the thread took, if it took one before the queue filled
                assertThat(accepted).hasSizeBetween(OffloadedScriptRunner.QUEUE, OffloadedScriptRunner.QUEUE + 1);
                assertThat(refused).isNotNull();
                assertThat(refused.handle((reply, failure) -> failure).join())
                    .isInstanceOf(RedisSystemException.class)
                    .hasMessageContaining("Too many rate-limit decisions waiting for Redis");
                CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                assertThat(accepted).allSatisfy(decided -> assertThat(decided).isCompletedWithValueMatching(
                        reply -> reply.size() == 6 && reply.get(0) == DecisionScript.ALLOWED));
            }
            finally {
                factory.destroy();
            }
        }
    }

    private static DecisionArguments call(Limit limit) {
        return new DecisionArguments(DecisionScript.ACQUIRE, 1).add("offloaded:{queue}", limit, 1);
    }

}
