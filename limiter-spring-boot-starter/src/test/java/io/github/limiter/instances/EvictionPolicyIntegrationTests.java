package io.github.limiter.instances;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.Limit;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.EmbeddedRedisCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.NestedExceptionUtils;

import static io.github.limiter.instances.Instance.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A Redis that evicts keys when it is full lifts the limiter's bans and resets its counts: every
 * policy but {@code noeviction} can evict the limiter's keys, since all of them carry a TTL. The
 * limiter says so once at start, shows the policy in its health and counts the evictions Redis
 * reports; with {@code limiter.redis.require-noeviction} such a Redis fails the start.
 */
@ExtendWith(OutputCaptureExtension.class)
class EvictionPolicyIntegrationTests {

    private static final String REQUIRE_NOEVICTION = "limiter.redis.require-noeviction=true";

    /**
     * For the starts that must connect at once, and readings that must not time out: a loaded
     * machine may answer (a cluster's PING to every master, an INFO) slower than the default
     * 100 ms; the start would then go on without Redis and read the policy later.
     */
    private static final String PATIENT = "limiter.redis.timeout=1s";

    private final String prefix = "eviction-" + UUID.randomUUID() + ":";

    @ParameterizedTest
    @ValueSource(strings = { "volatile-lru", "allkeys-lru" })
    void aPolicyThatCanEvictTheLimitersKeysIsReportedOnce(String policy, CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith("maxmemory 64mb", "maxmemory-policy " + policy);
                Instance instance = Instance.start(redis.port(), this.prefix)) {
            awaitConnected(instance);
            for (int probe = 0; probe < 3; probe++) {
                assertThat(instance.healthDetails()).containsEntry("maxmemoryPolicy", policy);
            }
            assertThat(instance.health()).as("a risk, not an outage").isEqualTo(Status.UP);
            assertThat(policyLines(output)).singleElement()
                .asString()
                .contains(" WARN ", "maxmemory-policy is " + policy, "lifts bans", "resets counts", "noeviction",
                        "limiter.redis.require-noeviction");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "volatile-lru", "allkeys-lru" })
    void aPolicyThatCanEvictTheLimitersKeysFailsTheStartWhenNoEvictionIsRequired(String policy) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith("maxmemory 64mb", "maxmemory-policy " + policy)) {
            Throwable failure = catchThrowable(
                    () -> Instance.start(redis.port(), this.prefix, PATIENT, REQUIRE_NOEVICTION).close());
            assertThat(failure).as("the start fails").isNotNull();
            assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                .hasMessageContaining("maxmemory-policy is " + policy)
                .hasMessageContaining("lifts bans")
                .hasMessageContaining("maxmemory-policy noeviction")
                .hasMessageContaining("limiter.redis.require-noeviction");
        }
    }

    @Test
    void noevictionIsNotReported(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith("maxmemory 64mb", "maxmemory-policy noeviction");
                Instance instance = Instance.start(redis.port(), this.prefix, REQUIRE_NOEVICTION)) {
            awaitConnected(instance);
            assertThat(instance.healthDetails()).containsEntry("maxmemoryPolicy", "noeviction");
            assertThat(instance.health()).isEqualTo(Status.UP);
            assertThat(policyLines(output)).isEmpty();
        }
    }

    @Test
    void aRedisWithoutAMemoryLimitEvictsNothingWhateverItsPolicy(CapturedOutput output) {
        // maxmemory 0, Redis's default: no limit, so nothing is ever evicted
        try (EmbeddedRedis redis = EmbeddedRedis.startWith("maxmemory 0", "maxmemory-policy allkeys-lru");
                Instance instance = Instance.start(redis.port(), this.prefix, REQUIRE_NOEVICTION)) {
            awaitConnected(instance);
            assertThat(instance.healthDetails()).containsEntry("maxmemoryPolicy", "allkeys-lru");
            assertThat(instance.health()).isEqualTo(Status.UP);
            assertThat(policyLines(output)).isEmpty();
        }
    }

    @Test
    void theEvictionsRedisReportsAreCounted() {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith("maxmemory 2mb", "maxmemory-policy allkeys-lru");
                // the meter reads INFO within the command timeout, and not again for 10 s
                Instance instance = Instance.start(redis.port(), this.prefix, PATIENT)) {
            for (int user = 0; user < 20; user++) {
                for (int call = 0; call < 4; call++) {
                    instance.crawl("user-" + user);
                }
            }
            instance.awaitRecentEventsWritten();
            // a flood of other keys, 4 MB in all, into a Redis that holds 2 MB
            fill(redis, 4_000);
            long evictedBefore = redis.evictedKeys();
            assertThat(evictedBefore).as("Redis evicted keys").isPositive();
            double counted = instance.meters().get("limiter.redis.evictions").functionCounter().count();
            // any command may evict a few more while Redis stays at its limit
            assertThat(counted).isBetween((double) evictedBefore, (double) redis.evictedKeys());
        }
    }

    @Test
    void onRedisClusterTheMasterThatCanEvictIsReported(CapturedOutput output) {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3)) {
            // master 0 keeps the default (noeviction); master 2 has a policy that could evict, but
            // no memory limit; master 1 evicts when full
            cluster.withNode(1, commands -> commands.configSet("maxmemory", "64mb"));
            cluster.withNode(1, commands -> commands.configSet("maxmemory-policy", "allkeys-lru"));
            cluster.withNode(2, commands -> commands.configSet("maxmemory-policy", "volatile-lru"));
            String evicting = cluster.nodes().get(1);
            String nodes = "spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes());
            try (Instance instance = Instance.start(cluster.masters().get(0).port(), this.prefix, nodes, PATIENT)) {
                awaitConnected(instance);
                assertThat(instance.healthDetails()).containsEntry("maxmemoryPolicy", "allkeys-lru");
                assertThat(policyLines(output)).singleElement()
                    .asString()
                    .contains(" WARN ", "maxmemory-policy is allkeys-lru on " + evicting);
            }
            int port = cluster.masters().get(0).port();
            Throwable failure = catchThrowable(
                    () -> Instance.start(port, this.prefix, nodes, PATIENT, REQUIRE_NOEVICTION).close());
            assertThat(failure).as("the start fails").isNotNull();
            assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                .hasMessageContaining("maxmemory-policy is allkeys-lru on " + evicting);
        }
    }

    @Test
    void foundAfterAStartWithRedisDownItTurnsHealthDownWhenNoEvictionIsRequired(CapturedOutput output)
            throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (Instance instance = Instance.start(port, this.prefix, REQUIRE_NOEVICTION)) {
            assertThat(output.getOut()).contains("cannot reach Redis at 127.0.0.1:" + port + " at start-up");
            try (EmbeddedRedis redis = EmbeddedRedis.start(port, "maxmemory 64mb", "maxmemory-policy allkeys-lru")) {
                await(Duration.ofSeconds(10), "the limiter connects and reads the policy",
                        () -> output.getOut().contains("maxmemory-policy is allkeys-lru"));
                // the line comes just before the connection counts as open; until then health says
                // it has not connected yet
                await(Duration.ofSeconds(2), "health DOWN", () -> instance.health() == Status.DOWN);
                for (int probe = 0; probe < 3; probe++) {
                    assertThat(instance.health()).isEqualTo(Status.DOWN);
                    assertThat(instance.healthDetails()).containsEntry("maxmemoryPolicy", "allkeys-lru")
                        .hasEntrySatisfying("error", error -> assertThat(error).asString()
                            .contains("maxmemory-policy is allkeys-lru", "limiter.redis.require-noeviction"));
                }
                // the connection's ERROR line, with the failed check's message (with Jedis, Spring
                // Data's listener container logs its own, about the subscription)
                assertThat(output.getOut().lines())
                    .filteredOn(line -> line.contains(" ERROR ") && line.contains("Rate limiting"))
                    .hasSize(1);
                assertThat(output.getOut()).as("said once").containsOnlyOnce("maxmemory-policy is allkeys-lru");
                instance.crawl("someone");
                Limit crawl = Limit.of(3, Duration.ofMinutes(1));
                assertThat(instance.limiter().state(Instance.CRAWL, "someone", crawl).count()).as("limits still decide")
                    .isEqualTo(1);
            }
        }
    }

    /**
     * Waits for the limiter's first connection, which a loaded machine may open after the start, in
     * the background: the policy is read then.
     */
    private static void awaitConnected(Instance instance) {
        await(Duration.ofSeconds(10), "the limiter to connect and read the policy",
                () -> instance.healthDetails().containsKey("maxmemoryPolicy"));
    }

    /** The log lines about the policy: a WARN or an ERROR naming it. */
    private static List<String> policyLines(CapturedOutput output) {
        return output.getOut().lines().filter(line -> line.contains("maxmemory-policy")).toList();
    }

    private static void fill(EmbeddedRedis redis, int keys) {
        String value = "x".repeat(1_000);
        redis.withCommands(commands -> {
            for (int from = 0; from < keys; from += 100) {
                Map<String, String> batch = new LinkedHashMap<>();
                for (int key = from; key < from + 100; key++) {
                    batch.put("flood:" + key, value);
                }
                commands.mset(batch);
            }
            return null;
        });
    }

}
