package io.github.limiter.instances;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.limiter.test.EmbeddedRedis;
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
 * so once at start, and shows its persistence in health (which stays {@code UP}: a risk, not an
 * outage). Redis's save points need {@code CONFIG GET}, which a Redis user may lack: the
 * persistence is then unknown, and the start goes on; granted, it is read as Lettuce reconnects.
 */
@ExtendWith(OutputCaptureExtension.class)
class PersistenceIntegrationTests {

    /** A Redis that writes nothing to disk, as the test servers are by default, said outright. */
    private static final String[] NO_PERSISTENCE = { "save \"\"", "appendonly no" };

    /** Readings that must not time out on a loaded machine: a start would read later instead. */
    private static final String PATIENT = "limiter.redis.timeout=1s";

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

}
