package io.github.limiter.instances;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.Decision;
import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.DataAccessException;

import static io.github.limiter.instances.Instance.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A busy host and a slow Redis: a slow first connection costs neither the start nor the
 * subscription, and the health probe is cheap, survives one slow command, and logs each change of
 * state once.
 */
@ExtendWith(OutputCaptureExtension.class)
class SlowRedisIntegrationTests {

    private final String prefix = "slow-" + UUID.randomUUID() + ":";

    @Test
    void aSlowFirstConnectionCostsNeitherTheStartNorTheSubscription(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                // Redis answers nothing for 0.8 s as the limiter connects: far past the 100 ms
                // command timeout, within connecting's 2 s
                Instance instance = Instance.start(redis.port(), this.prefix, "test.freeze-redis=0.8")) {
            assertThat(output.getOut()).as("connected during the start").contains("Rate limiting uses Redis ")
                .doesNotContain("cannot reach Redis at start-up");
            assertThat(instance.limiter().tryAcquire("first", "k", 5, Duration.ofMinutes(1)).remaining())
                .as("the first decision is exact").isEqualTo(4);
            await(Duration.ofSeconds(5), "subscribed", instance::subscribed);
        }
    }

    /**
     * Redis frozen past the connect timeout as the limiter connects, so the start goes on without
     * it, then answering {@code PING} but holding the limiter's check and scripts (behind a proxy
     * that holds them, the same on every Redis version): the connection opens in the background,
     * but the limiter cannot decide yet. Until it can, every call follows its on-failure setting at
     * once and reaches no Redis; the first decision after is exact.
     */
    @Test
    void callsWhileTheFirstConnectionOpensFollowOnFailureAtOnce() {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                HoldingProxy proxy = HoldingProxy.start(redis.port(), Duration.ofSeconds(2));
                // frozen for 1.5 s, past connecting's 0.5 s; then the check held for 2 s, past a command's 1 s
                Instance instance = Instance.start(proxy.port(), this.prefix, "test.freeze-redis=1.5",
                        "limiter.redis.connect-timeout=500ms", "limiter.redis.timeout=1s")) {
            Opening opening = Opening.decideUntilExact(instance, Duration.ofSeconds(10));
            assertThat(opening.failed()).as("calls made while the connection opened").isNotEmpty();
            assertThat(opening.slowestFailure()).as("the slowest of %d calls that could not be decided",
                    opening.failed().size())
                .isLessThan(Duration.ofMillis(250));
            assertThat(opening.first().remaining()).as("the first decision counts one call, its own").isEqualTo(4);
        }
    }

    /**
     * Redis answers {@code PING} at start-up but holds the limiter's check past the command
     * timeout: the start goes on, and calls follow their on-failure setting at once until the
     * check passes.
     */
    @Test
    void aRedisThatHoldsTheCheckAtStartUpFailsNeitherTheStartNorTheCalls(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                HoldingProxy proxy = HoldingProxy.start(redis.port(), Duration.ofSeconds(2));
                Instance instance = Instance.start(proxy.port(), this.prefix, "limiter.redis.timeout=1s")) {
            // Lettuce: "INFO. Command timed out after 1 second(s)"; Jedis: "Read timed out"
            assertThat(output.getOut()).containsPattern("WARN .* Rate limiting cannot reach Redis at 127.0.0.1:"
                    + proxy.port() + " at start-up \\(.*timed out.*\\); limited calls follow");
            Opening opening = Opening.decideUntilExact(instance, Duration.ofSeconds(10));
            assertThat(opening.slowestFailure()).as("the slowest of %d calls that could not be decided",
                    opening.failed().size())
                .isLessThan(Duration.ofMillis(250));
            assertThat(opening.first().remaining()).as("the first decision counts one call, its own").isEqualTo(4);
        }
    }

    @Test
    void theHealthProbeIsOnePingThatOneSlowCommandDoesNotFail(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); Instance instance = Instance.start(redis.port(), this.prefix)) {
            long started = System.nanoTime();
            // this probe reads the maxmemory-policy, which the next ones reuse for 10 s
            assertThat(instance.health()).isEqualTo(Status.UP);
            Map<String, Long> before = redis.commandCalls();
            for (int probe = 0; probe < 20; probe++) {
                assertThat(instance.health()).isEqualTo(Status.UP);
            }
            Map<String, Long> after = redis.commandCalls();
            long policyReadings = Duration.ofNanos(System.nanoTime() - started).toSeconds() / 10;
            assertThat(after.get("ping") - before.get("ping")).as("PINGs for 20 probes").isEqualTo(20);
            // the test's own first reading, and one more per 10 s of probes on a very slow machine
            assertThat(after.get("info") - before.get("info")).as("INFO for 20 probes")
                .isBetween(1L, 1 + policyReadings);
            // the save points, read with the policy
            assertThat(EmbeddedRedis.callsOf(after, "config") - EmbeddedRedis.callsOf(before, "config"))
                .as("CONFIG GET for 20 probes")
                .isBetween(0L, policyReadings);
            assertThat(after.getOrDefault("script", 0L) - before.getOrDefault("script", 0L))
                .as("SCRIPT LOAD for 20 probes").isZero();

            try (Freeze freeze = Freeze.of(redis, 0.15)) {
                // the first PING times out after 100 ms; the second is answered when Redis wakes
                assertThat(instance.health()).as("one slow command").isEqualTo(Status.UP);
            }
            assertThat(output.getOut()).doesNotContain("Rate limiting's health is");

            redis.close();
            for (int probe = 0; probe < 5; probe++) {
                // its one limit fails open
                assertThat(instance.health().getCode()).isEqualTo("DEGRADED");
            }
            EmbeddedRedis.start(redis.port()).close();
            assertThat(output.getOut().lines().filter(line -> line.contains("Rate limiting's health is DEGRADED")))
                .as("logged once for 5 failed probes").hasSize(1);
        }
    }

    /**
     * Calls of one key, one at a time, until one is decided: how long each that could not be
     * decided took, and the first decision.
     */
    record Opening(List<Duration> failed, Decision first) {

        static Opening decideUntilExact(Instance instance, Duration within) {
            List<Duration> failed = new ArrayList<>();
            long deadline = System.nanoTime() + within.toNanos();
            while (System.nanoTime() - deadline < 0) {
                long start = System.nanoTime();
                try {
                    Decision decision = instance.limiter().tryAcquire("opening", "key", 5, Duration.ofMinutes(1));
                    return new Opening(failed, decision);
                }
                catch (DataAccessException ex) {
                    failed.add(Duration.ofNanos(System.nanoTime() - start));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
            }
            throw new AssertionError("Not decided within " + within.toMillis() + " ms");
        }

        Duration slowestFailure() {
            return this.failed.stream().max(Duration::compareTo).orElse(Duration.ZERO);
        }

    }

    /** Redis does nothing else for a while ({@code DEBUG SLEEP}), as on a busy host; closing waits it out. */
    record Freeze(RedisClient client, StatefulRedisConnection<String, String> connection) implements AutoCloseable {

        static Freeze of(EmbeddedRedis redis, double seconds) {
            return of(redis.host(), redis.port(), seconds);
        }

        /** Starts the sleep; it ends by itself, and the connection with the JVM if never closed. */
        static Freeze of(String host, int port, double seconds) {
            RedisClient client = RedisClient.create(RedisURI.create(host, port));
            StatefulRedisConnection<String, String> connection = client.connect();
            connection.async()
                .dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                        new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add(Double.toString(seconds)));
            return new Freeze(client, connection);
        }

        @Override
        public void close() {
            // a PING answered means the sleep is over
            this.connection.sync().ping();
            this.connection.close();
            this.client.shutdown();
        }

    }

}
