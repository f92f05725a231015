package io.github.limiter.autoconfigure.internal;

import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Reading persistence from {@code INFO} and {@code CONFIG GET save} replies, of one server and of a
 * cluster's nodes, and telling a restart from a failover.
 */
class PersistenceReadingTests {

    @Test
    void whatOneServerWritesToDisk() {
        assertThat(reading(false, "").persistence()).isEqualTo("none");
        assertThat(reading(true, "").persistence()).isEqualTo("aof");
        assertThat(reading(false, "3600 1 300 100 60 10000").persistence()).isEqualTo("rdb");
        assertThat(reading(true, "3600 1").persistence()).isEqualTo("aof+rdb");
    }

    @Test
    void withoutTheSavePointsOnlyAnAppendOnlyFileTells() {
        Properties info = info("", "master", false, "run-1", 5);
        PersistenceReading unknown = PersistenceReading.of(info, null, "the Redis user may not run CONFIG GET");
        assertThat(unknown.persistence()).isEqualTo("unknown");
        assertThat(unknown.savePointsUnread()).isEqualTo("the Redis user may not run CONFIG GET");
        assertThat(PersistenceReading.of(info("", "master", true, "run-1", 5), null, "refused").persistence())
            .isEqualTo("aof");
    }

    @Test
    void theWorstMasterComesFirstAndReplicasAreLeftOut() {
        Properties info = info("10.0.0.1:7000.", "master", true, "a", 50);
        info.putAll(info("10.0.0.2:7000.", "master", false, "b", 50));
        info.putAll(info("10.0.0.3:7000.", "master", false, "c", 50));
        info.putAll(info("10.0.0.4:7000.", "slave", false, "d", 50));
        Properties saves = new Properties();
        saves.setProperty("10.0.0.1:7000.save", "");
        saves.setProperty("10.0.0.2:7000.save", "900 1");
        saves.setProperty("10.0.0.3:7000.save", "");
        saves.setProperty("10.0.0.4:7000.save", "");
        PersistenceReading reading = PersistenceReading.of(info, saves, null);
        assertThat(reading.servers()).extracting(PersistenceReading.Server::node)
            .containsExactly("10.0.0.3:7000", "10.0.0.2:7000", "10.0.0.1:7000");
        assertThat(reading.persistence()).isEqualTo("none");
        assertThat(reading.savePointsUnread()).isNull();
    }

    @Test
    void aRestartIsTheSameNodeInAProcessStartedSinceTheEarlierReading() {
        PersistenceReading.Server earlier = server("", "run-1", 600, "history-1", "");
        assertThat(server("", "run-2", 3, "history-2", "").restartedSince(earlier, 10)).as("started 3 s ago")
            .isTrue();
        assertThat(server("", "run-1", 610, "history-1", "").restartedSince(earlier, 10)).as("the same process")
            .isFalse();
        assertThat(server("10.0.0.2:7000", "run-2", 3, "history-2", "").restartedSince(earlier, 10))
            .as("another node")
            .isFalse();
    }

    @Test
    void aReplicaPromotedBehindTheSameConnectionIsNoRestart() {
        PersistenceReading.Server earlier = server("", "run-1", 600, "history-1", "");
        // Sentinel's connection moves to the replica, which had run for a day
        assertThat(server("", "run-2", 86_400, "history-2", "history-1").restartedSince(earlier, 10))
            .as("running for longer")
            .isFalse();
        // one started a moment before the failover: it carries on the old master's history
        assertThat(server("", "run-2", 3, "history-2", "history-1").restartedSince(earlier, 10))
            .as("the old master's history")
            .isFalse();
    }

    @Test
    void aReplyWithoutAofEnabledIsRefused() {
        Properties info = new Properties();
        info.setProperty("redis_version", "7.0.15");
        assertThatIllegalStateException().isThrownBy(() -> PersistenceReading.of(info, new Properties(), null))
            .withMessageContaining("aof_enabled");
    }

    private static PersistenceReading reading(boolean aof, String save) {
        Properties saves = new Properties();
        saves.setProperty("save", save);
        return PersistenceReading.of(info("", "master", aof, "run-1", 5), saves, null);
    }

    private static PersistenceReading.Server server(String node, String runId, long uptime, String history,
            String previousHistory) {
        return new PersistenceReading.Server(node, runId, uptime, history, previousHistory, false, "");
    }

    private static Properties info(String prefix, String role, boolean aof, String runId, long uptime) {
        Properties info = new Properties();
        info.setProperty(prefix + "role", role);
        info.setProperty(prefix + "aof_enabled", aof ? "1" : "0");
        info.setProperty(prefix + "run_id", runId);
        info.setProperty(prefix + "uptime_in_seconds", Long.toString(uptime));
        return info;
    }

}
