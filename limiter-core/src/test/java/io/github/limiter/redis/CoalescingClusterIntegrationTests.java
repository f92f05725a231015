package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedisCluster;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coalesced decisions on a real Redis Cluster of three masters: calls are gathered per hash slot,
 * so each script call stays in one slot (no {@code CROSSSLOT}), and every decision is exact, also
 * for calls whose limits span slots and are decided by check-then-acquire.
 */
class CoalescingClusterIntegrationTests {

    private static final int MASTERS = 3;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static EmbeddedRedisCluster cluster;

    private static LettuceConnectionFactory connection;

    private static StringRedisTemplate redis;

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "coalescing-cluster-" + UUID.randomUUID() + ":";

    private final Limit fivePerMinute = Limit.of(5, Duration.ofMinutes(1));

    @BeforeAll
    static void start() {
        // one cluster for the class: starting one and waiting for its gossip takes seconds
        cluster = EmbeddedRedisCluster.start(MASTERS);
        connection = new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.nodes()),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
        connection.afterPropertiesSet();
        connection.start();
        redis = new StringRedisTemplate(connection);
    }

    @AfterAll
    static void stop() {
        if (connection != null) {
            connection.destroy();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void asynchronousCallsOnKeysInManySlotsAreExactAndCoalescedPerSlot() {
        RedisRateLimiter limiter = limiter();
        int keys = 40;
        List<Integer> slots = new ArrayList<>();
        for (int key = 0; key < keys; key++) {
            slots.add(ClusterSlotHashUtil.calculateSlot(RedisKeys.state(this.prefix, "spread", "k" + key)));
        }
        long distinctSlots = slots.stream().distinct().count();
        assertThat(distinctSlots).as("slots of the keys").isGreaterThan(30);
        // 8 calls per key, all sent while Redis holds the first: at most 5 of each pass
        pauseMasters();
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        for (int call = 0; call < 8; call++) {
            for (int key = 0; key < keys; key++) {
                decisions.add(limiter.tryAcquireAsync("spread", "k" + key, this.fivePerMinute).toCompletableFuture());
            }
        }
        for (int key = 0; key < keys; key++) {
            int passed = 0;
            for (int call = 0; call < 8; call++) {
                // a script call spanning slots would fail here with CROSSSLOT
                Decision decision = assertThat(decisions.get(call * keys + key)).as("key %d, call %d", key, call)
                    .succeedsWithin(TIMEOUT)
                    .actual();
                passed += decision.allowed() ? 1 : 0;
            }
            assertThat(passed).as("calls passed on key %d", key).isEqualTo(5);
            assertThat(limiter.state("spread", "k" + key, this.fivePerMinute).count()).isEqualTo(5);
        }
        for (int node = 0; node < MASTERS; node++) {
            List<String> onNode = cluster.withNode(node, commands -> commands.keys(this.prefix + "*"));
            assertThat(onNode).as("keys on master %d", node).isNotEmpty();
        }
        // per slot: the first call alone, those that came while it was in flight together, at the
        // next tick of the timer (or two, for calls made across one), without waiting for its reply
        CoalescingScriptRunner coalescing = limiter.runners.coalescing();
        assertThat(coalescing.runs()).as("script calls for %d decisions", decisions.size())
            .isBetween(2 * distinctSlots, 4 * distinctSlots);
        assertThat(coalescing.coalesced()).as("decisions sent in runs of two or more")
            .isGreaterThanOrEqualTo(decisions.size() - 4 * distinctSlots);
    }

    @Test
    void callsUnderLimitsInDifferentSlotsPassAllOrNothingWhileCoalesced() {
        RedisRateLimiter limiter = limiter();
        Limit perHour = Limit.of(100, Duration.ofHours(1)).withAlgorithm(Algorithm.SLIDING_LOG);
        int users = 20;
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        for (int user = 0; user < users; user++) {
            assertThat(ClusterSlotHashUtil.calculateSlot(RedisKeys.state(this.prefix, "per-minute", "u" + user)))
                .as("the limits of user %d are in different slots", user)
                .isNotEqualTo(ClusterSlotHashUtil.calculateSlot(RedisKeys.state(this.prefix, "per-hour", "u" + user)));
        }
        pauseMasters();
        // the tight limit first: a call that loses the race for its last permits is refused before
        // the hourly limit counts it, so the hourly count is exact too
        for (int call = 0; call < 8; call++) {
            for (int user = 0; user < users; user++) {
                decisions.add(limiter
                    .tryAcquireAsync(List.of(LimitRequest.of("per-minute", "u" + user, this.fivePerMinute),
                            LimitRequest.of("per-hour", "u" + user, perHour)))
                    .toCompletableFuture());
            }
        }
        for (int user = 0; user < users; user++) {
            int passed = 0;
            for (int call = 0; call < 8; call++) {
                Decision decision = assertThat(decisions.get(call * users + user)).as("user %d, call %d", user, call)
                    .succeedsWithin(TIMEOUT)
                    .actual();
                if (decision.allowed()) {
                    passed++;
                }
                else {
                    assertThat(decision.limitId()).as("the limit that refused").isEqualTo("per-minute");
                }
            }
            assertThat(passed).as("calls passed for user %d", user).isEqualTo(5);
            assertThat(limiter.state("per-minute", "u" + user, this.fivePerMinute).count()).isEqualTo(5);
            assertThat(limiter.state("per-hour", "u" + user, perHour).count())
                .as("refused calls counted by neither limit, user %d", user)
                .isEqualTo(5);
        }
        assertThat(limiter.runners.coalescing().coalesced()).as("decisions sent in runs of two or more").isPositive();
    }

    /**
     * Holds every client's commands on every master for a second, from connections of their own,
     * so that the calls sent now find the first of their slot still in flight.
     */
    private static void pauseMasters() {
        for (int node = 0; node < MASTERS; node++) {
            cluster.withNode(node, commands -> commands.clientPause(1000));
        }
    }

    private RedisRateLimiter limiter() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        limiter.check();
        assertThat(limiter.runners.coalescing()).as("coalescing on the cluster's shared connection").isNotNull();
        return limiter;
    }

}
