package io.github.limiter.autoconfigure;

import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Reading persistence from {@code INFO} and {@code CONFIG GET save} replies, of one server and of a
 * cluster's nodes.
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
        Properties info = info("", "master", false);
        PersistenceReading unknown = PersistenceReading.of(info, null, "the Redis user may not run CONFIG GET");
        assertThat(unknown.persistence()).isEqualTo("unknown");
        assertThat(unknown.savePointsUnread()).isEqualTo("the Redis user may not run CONFIG GET");
        assertThat(PersistenceReading.of(info("", "master", true), null, "refused").persistence())
            .isEqualTo("aof");
    }

    @Test
    void theWorstMasterComesFirstAndReplicasAreLeftOut() {
        Properties info = info("10.0.0.1:7000.", "master", true);
        info.putAll(info("10.0.0.2:7000.", "master", false));
        info.putAll(info("10.0.0.3:7000.", "master", false));
        info.putAll(info("10.0.0.4:7000.", "slave", false));
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
    void aReplyWithoutAofEnabledIsRefused() {
        Properties info = new Properties();
        info.setProperty("redis_version", "7.0.15");
        assertThatIllegalStateException().isThrownBy(() -> PersistenceReading.of(info, new Properties(), null))
            .withMessageContaining("aof_enabled");
    }

    private static PersistenceReading reading(boolean aof, String save) {
        Properties saves = new Properties();
        saves.setProperty("save", save);
        return PersistenceReading.of(info("", "master", aof), saves, null);
    }

    private static Properties info(String prefix, String role, boolean aof) {
        Properties info = new Properties();
        info.setProperty(prefix + "role", role);
        info.setProperty(prefix + "aof_enabled", aof ? "1" : "0");
        return info;
    }

}
