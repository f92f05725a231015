package io.github.limiter.instances;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;

import io.github.limiter.Limit;
import io.github.limiter.LimitState;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.EmbeddedRedisSentinel;
import io.github.limiter.test.SentinelEvents;
import io.lettuce.core.KillArgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.logging.LoggingSystemProperty;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static io.github.limiter.instances.Instance.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that writes nothing to disk loses every ban and count when it restarts: the limiter says
 * so once at start, shows its persistence in health (which stays {@code UP}: a risk, not an
 * outage), and, when Redis restarted under it, says what the restart lost. Redis's save points
 * need {@code CONFIG GET}, which a Redis user may lack: the persistence is then unknown, and the
 * start goes on; granted, it is read as Lettuce reconnects.
 *
 * <p>With Lettuce, which tells when it reconnects: the restart is found as the limiter reconnects,
 * with no health probe or scrape to ask. Jedis tells nothing; there the next reading finds it
 * ({@code RedisServerSettingsIntegrationTests}).
 */
@ExtendWith(OutputCaptureExtension.class)
class PersistenceIntegrationTests {

    /** A Redis that writes nothing to disk, as the test servers are by default, said outright. */
    private static final String[] NO_PERSISTENCE = { "save \"\"", "appendonly no" };

    /** Readings that must not time out on a loaded machine: a start would read later instead. */
    private static final String PATIENT = "limiter.redis.timeout=1s";

    private static final Limit CRAWL = Limit.of(3, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(15));

    private final String prefix = "persistence-" + UUID.randomUUID() + ":";

    @ParameterizedTest
    @CsvSource({ "console,' WARN '", "ecs,'\"level\":\"WARN\"'" })
    void aRedisWithoutPersistenceIsReportedOnceAndStaysUp(String format, String warn, CapturedOutput output) {
        String[] properties = format.equals("ecs") ? new String[] { PATIENT, "logging.structured.format.console=ecs" }
                : new String[] { PATIENT };
        try (EmbeddedRedis redis = EmbeddedRedis.startWith(NO_PERSISTENCE);
                Instance instance = Instance.start(redis.port(), this.prefix, properties)) {
            awaitRead(instance);
            for (int probe = 0; probe < 3; probe++) {
                assertThat(instance.healthDetails()).containsEntry("persistence", "none");
            }
            assertThat(instance.health()).as("a risk, not an outage").isEqualTo(Status.UP);
            assertThat(persistenceLines(output)).singleElement()
                .asString()
                .contains(warn, "Redis writes none of its data to disk (appendonly no, save", "a restart of Redis "
                        + "loses every ban and count", "appendonly yes", "appendfsync everysec", "docs/operations.md");
        }
        finally {
            // Spring Boot hands the format to the logging system as a system property, which outlives the
            // application and would format the log of every application this JVM starts after it
            System.clearProperty(LoggingSystemProperty.CONSOLE_STRUCTURED_FORMAT.getEnvironmentVariableName());
        }
    }

    @ParameterizedTest
    @CsvSource({ "'appendonly yes',aof", "'save 900 1',rdb", "'appendonly yes;save 900 1',aof+rdb" })
    void aRedisThatWritesToDiskIsNotReported(String settings, String persistence, @TempDir Path directory,
            CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith(writingTo(directory, settings));
                Instance instance = Instance.start(redis.port(), this.prefix, PATIENT)) {
            awaitRead(instance);
            assertThat(instance.healthDetails()).containsEntry("persistence", persistence);
            assertThat(instance.health()).isEqualTo(Status.UP);
            assertThat(persistenceLines(output)).isEmpty();
        }
    }

    @Test
    void aRestartOfARedisWithoutPersistenceIsLoggedAsTheLossOfItsBans(CapturedOutput output) {
        banThenRestart(NO_PERSISTENCE, output, (instance, restarted) -> {
            assertThat(restartLines(output)).singleElement()
                .asString()
                .contains(" WARN ", "without persistence: the bans and counts from before the restart were lost",
                        "appendonly yes");
            // what the line says: Redis has none of the limiter's keys, so the ban is gone ...
            List<String> keys = restarted.withCommands(commands -> commands.keys(this.prefix + "*"));
            assertThat(keys).as("the limiter's keys in Redis").isEmpty();
            LimitState state = instance.limiter().state(Instance.CRAWL, "mallory", CRAWL);
            assertThat(state.banned()).isFalse();
            assertThat(state.count()).isZero();
            // ... and the limit counts from zero: three calls more before the next ban
            for (int call = 0; call < 3; call++) {
                assertThat(instance.crawl("mallory")).as("call %d after the restart", call + 1).isTrue();
            }
            assertThat(instance.crawl("mallory")).isFalse();
            assertThat(instance.limiter().state(Instance.CRAWL, "mallory", CRAWL).count()).as("decided by Redis")
                .isEqualTo(3);
        });
    }

    @Test
    void aRestartOfARedisWithAnAppendOnlyFileKeepsItsBansAndSaysSo(@TempDir Path directory, CapturedOutput output) {
        banThenRestart(writingTo(directory, "appendonly yes;appendfsync everysec"), output, (instance, restarted) -> {
            assertThat(restartLines(output)).singleElement()
                .asString()
                .contains(" INFO ", "reloaded its data from its append-only file (aof)");
            LimitState state = instance.limiter().state(Instance.CRAWL, "mallory", CRAWL);
            assertThat(state.banned()).as("the ban kept").isTrue();
            assertThat(instance.crawl("mallory")).isFalse();
        });
        assertThat(persistenceLines(output)).isEmpty();
    }

    /**
     * Redis's own upgrade procedure: restart the replica, then fail over to it. The new master is a
     * process started since the limiter last read Redis, behind the same connection, as a restarted
     * master would be; but it carries on the old master's data.
     */
    @Test
    void aFailoverToAReplicaJustRestartedIsNotTakenForARestart(CapturedOutput output) {
        try (EmbeddedRedisSentinel redis = EmbeddedRedisSentinel.start(2);
                Instance instance = Instance.start(redis.servers().get(0).port(), this.prefix, PATIENT,
                        "spring.data.redis.sentinel.master=" + EmbeddedRedisSentinel.MASTER,
                        "spring.data.redis.sentinel.nodes=" + String.join(",", redis.sentinelNodes()));
                SentinelEvents events = redis.listen()) {
            awaitRead(instance);
            EmbeddedRedis master = redis.servers().get(0);
            EmbeddedRedis replica = redis.servers().get(1);
            replica.close();
            // a policy of its own, so that the limiter's reading of the new master shows in the log
            try (EmbeddedRedis restarted = EmbeddedRedis.start(replica.port(),
                    "replicaof " + master.host() + " " + master.port(), "maxmemory 64mb",
                    "maxmemory-policy allkeys-lru")) {
                restarted.awaitMasterLinkUp();
                String runId = runId(restarted);
                redis.await(() -> redis.onSentinel(0, commands -> commands.replicas(EmbeddedRedisSentinel.MASTER))
                    .stream()
                    .anyMatch(known -> runId.equals(known.get("runid")) && "slave".equals(known.get("flags"))),
                        "the sentinel to see the restarted replica in good health");
                redis.failover();
                events.awaitSwitch();
                // read as Lettuce reconnects to the new master: nothing else here asks
                await(Duration.ofSeconds(10), "the new master read",
                        () -> output.getOut().contains("maxmemory-policy is allkeys-lru"));
                assertThat(output.getOut()).doesNotContain("Redis restarted");
            }
        }
    }

    @Test
    void aUserWithoutConfigGetLeavesPersistenceUnknownAndTheStartGoesOn(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith(NO_PERSISTENCE)) {
            // the rules docs/operations.md gives, which leave CONFIG out
            RedisPermissionsIntegrationTests.user(redis, "resetchannels", "~" + this.prefix + "*",
                    "&" + this.prefix + "*", "+@read", "+@write", "+@scripting", "+publish", "+subscribe", "+ping",
                    "+info", "+time");
            try (Instance instance = Instance.start(redis.port(), this.prefix, PATIENT,
                    "spring.data.redis.username=" + RedisPermissionsIntegrationTests.USER,
                    "spring.data.redis.password=" + RedisPermissionsIntegrationTests.PASSWORD)) {
                awaitRead(instance);
                assertThat(instance.healthDetails()).containsEntry("persistence", "unknown");
                assertThat(instance.health()).isEqualTo(Status.UP);
                assertThat(persistenceLines(output)).singleElement()
                    .asString()
                    .contains(" INFO ", "could not read whether Redis writes its data to disk",
                            "AOF is off (appendonly no)", "the Redis user may not run CONFIG GET", "+config|get");
                assertThat(instance.crawl("mallory")).as("limits decide").isTrue();

                // granted: read at the next connection, here one Redis dropped
                RedisPermissionsIntegrationTests.user(redis, "+config|get");
                redis.withCommands(commands -> commands.clientKill(KillArgs.Builder.typeNormal()));
                await(Duration.ofSeconds(10), "the persistence read again",
                        () -> output.getOut().contains("Redis writes none of its data to disk"));
                assertThat(instance.healthDetails()).containsEntry("persistence", "none");
            }
        }
    }

    /**
     * Starts Redis and an instance, bans {@code mallory}, stops Redis as a service manager stops it
     * (SIGTERM: Redis writes what it persists to disk) and starts it again, with the same settings,
     * on the same port; runs the checks once the limiter has logged the restart.
     */
    private void banThenRestart(String[] settings, CapturedOutput output, BiConsumer<Instance, EmbeddedRedis> checks) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith(settings);
                Instance instance = Instance.start(redis.port(), this.prefix, PATIENT)) {
            awaitRead(instance);
            ban(instance, "mallory");
            redis.close();
            try (EmbeddedRedis restarted = EmbeddedRedis.start(redis.port(), settings)) {
                // read as Lettuce reconnects: nothing else here asks (no health probe, no scrape)
                await(Duration.ofSeconds(10), "the restart logged", () -> output.getOut().contains("Redis restarted"));
                checks.accept(instance, restarted);
            }
        }
    }

    /** Bans the key, and checks that Redis holds the ban. */
    private static void ban(Instance instance, String user) {
        for (int call = 0; call < 3; call++) {
            assertThat(instance.crawl(user)).isTrue();
        }
        assertThat(instance.crawl(user)).as("the fourth call is refused and bans").isFalse();
        assertThat(instance.limiter().state(Instance.CRAWL, user, CRAWL).banned()).isTrue();
    }

    private static String runId(EmbeddedRedis redis) {
        return redis.withCommands(commands -> commands.info("server"))
            .lines()
            .filter(line -> line.startsWith("run_id:"))
            .map(line -> line.substring("run_id:".length()).strip())
            .findFirst()
            .orElseThrow();
    }

    /** Settings separated by {@code ;}, with the directory Redis writes its files in. */
    private static String[] writingTo(Path directory, String settings) {
        return (settings + ";dir " + directory).split(";");
    }

    /**
     * Waits for the limiter's first connection, which a loaded machine may open after the start, in
     * the background: the settings are read then.
     */
    private static void awaitRead(Instance instance) {
        await(Duration.ofSeconds(10), "the limiter to connect and read the persistence",
                () -> instance.healthDetails().containsKey("persistence"));
    }

    /** The log lines about persistence at the start or as it changes. */
    private static List<String> persistenceLines(CapturedOutput output) {
        return output.getOut().lines().filter(line -> line.contains("data to disk")).toList();
    }

    private static List<String> restartLines(CapturedOutput output) {
        return output.getOut().lines().filter(line -> line.contains("Redis restarted")).toList();
    }

}
