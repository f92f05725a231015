package io.github.limiter.autoconfigure.internal;

import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Reading eviction from {@code INFO} replies, of one server and of a cluster's nodes.
 */
class EvictionReadingTests {

    @Test
    void oneServer() {
        EvictionReading reading = EvictionReading.of(info("", "master", "allkeys-lru", 2097152, 17));
        assertThat(reading).isEqualTo(new EvictionReading("allkeys-lru", 2097152, "2097152", "", 17));
        assertThat(reading.evicts()).isTrue();
    }

    @Test
    void withoutAMemoryLimitNoPolicyEvicts() {
        assertThat(EvictionReading.of(info("", "master", "volatile-lru", 0, 0)).evicts()).isFalse();
        assertThat(EvictionReading.of(info("", "master", "noeviction", 1024, 0)).evicts()).isFalse();
    }

    @Test
    void theWorstMasterWinsAndReplicasAreLeftOut() {
        Properties info = info("10.0.0.1:7000.", "master", "noeviction", 1024, 0);
        info.putAll(info("10.0.0.2:7000.", "master", "allkeys-lru", 1024, 5));
        info.putAll(info("10.0.0.3:7000.", "master", "volatile-ttl", 1024, 7));
        info.putAll(info("10.0.0.4:7000.", "master", "volatile-lru", 0, 0));
        info.putAll(info("10.0.0.5:7000.", "slave", "volatile-random", 1024, 100));
        EvictionReading reading = EvictionReading.of(info);
        // a volatile-* policy evicts only keys with a TTL: every limiter key, and few others
        assertThat(reading.policy()).isEqualTo("volatile-ttl");
        assertThat(reading.node()).isEqualTo("10.0.0.3:7000");
        assertThat(reading.evictedKeys()).as("the masters' evictions").isEqualTo(12);
    }

    @Test
    void aReplicaIsReadWhenNoMasterAnswered() {
        EvictionReading reading = EvictionReading.of(info("", "slave", "allkeys-lfu", 1024, 3));
        assertThat(reading.policy()).isEqualTo("allkeys-lfu");
    }

    @Test
    void aReplyWithoutPolicyIsRefused() {
        Properties info = new Properties();
        info.setProperty("redis_version", "7.0.15");
        assertThatIllegalStateException().isThrownBy(() -> EvictionReading.of(info))
            .withMessageContaining("maxmemory_policy");
    }

    private static Properties info(String prefix, String role, String policy, long maxmemory, long evicted) {
        Properties info = new Properties();
        info.setProperty(prefix + "role", role);
        info.setProperty(prefix + "maxmemory_policy", policy);
        info.setProperty(prefix + "maxmemory", Long.toString(maxmemory));
        info.setProperty(prefix + "evicted_keys", Long.toString(evicted));
        return info;
    }

}
