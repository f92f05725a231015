package io.github.limiter.reliability;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The starter, unchanged, against a real Redis Cluster of three masters: every algorithm, the
 * tiers and several limits per method, with no CROSSSLOT error and keys spread over the masters.
 */
class RedisClusterIntegrationTests {

    private static EmbeddedRedisCluster cluster;

    private static ConfigurableApplicationContext context;

    @BeforeAll
    static void start() {
        cluster = EmbeddedRedisCluster.start(3);
        SpringApplication application = new SpringApplication(ClusterApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        context = application.run("--spring.main.banner-mode=off",
                "--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes()),
                "--limiter.key-prefix=cluster-" + UUID.randomUUID() + ":");
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyAlgorithmLimitsExactly() {
        Calls calls = context.getBean(Calls.class);
        for (Algorithm algorithm : Algorithm.values()) {
            String user = algorithm + "-" + UUID.randomUUID();
            int allowed = 0;
            for (int call = 0; call < 8; call++) {
                try {
                    byAlgorithm(calls, algorithm, user);
                    allowed++;
                }
                catch (RateLimitExceededException ex) {
                    assertThat(ex.isFailure()).as("no Redis error on %s", algorithm).isFalse();
                }
            }
            assertThat(allowed).as(algorithm.name()).isEqualTo(5);
        }
    }

    @Test
    void alertsAndBansFireOnceAndBanKeysShareTheCountersSlot() {
        Calls calls = context.getBean(Calls.class);
        Events events = context.getBean(Events.class);
        String user = "tiers-" + UUID.randomUUID();
        for (int call = 0; call < 6; call++) {
            try {
                calls.tiers(user);
            }
            catch (RateLimitExceededException ex) {
                assertThat(ex.isBanned()).isTrue();
            }
        }
        assertThat(events.alerts).filteredOn(event -> event.key().equals(user)).hasSize(1);
        assertThat(events.bans).filteredOn(event -> event.key().equals(user)).hasSize(1);
        RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);
        assertThat(limiter.isBanned("tiers", user)).isTrue();
        assertThat(limiter.unban("tiers", user)).isTrue();
        calls.tiers(user);
    }

    @Test
    void severalLimitsPerMethodAcrossSlotsPassAllOrNothing() {
        Calls calls = context.getBean(Calls.class);
        String user = "several-" + UUID.randomUUID();
        calls.several(user);
        calls.several(user);
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> calls.several(user))
            .satisfies(ex -> assertThat(ex.getLimitId()).isEqualTo("several-minute"));
        RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);
        assertThat(limiter.state("several-hour", user, Limit.of(100, Duration.ofHours(1))).count()).as("the refused call took nothing from the hourly limit").isEqualTo(2);
    }

    @Test
    void keysSpreadOverEveryMaster() {
        Calls calls = context.getBean(Calls.class);
        for (int user = 0; user < 60; user++) {
            byAlgorithm(calls, Algorithm.FIXED_WINDOW, "spread-" + user);
        }
        for (int node = 0; node < 3; node++) {
            Long keys = cluster.withNode(node, commands -> commands.dbsize());
            assertThat(keys).as("keys on master %d", node).isPositive();
        }
    }

    @Test
    void theHealthCheckSeesEveryMaster() {
        assertThat(context.getBean(RedisRateLimiter.class).check()).isEqualTo(cluster.masters().get(0).redisVersion());
    }

    /** Calls through the proxy: a call from inside the bean would not be limited. */
    private static void byAlgorithm(Calls calls, Algorithm algorithm, String user) {
        switch (algorithm) {
            case FIXED_WINDOW -> calls.fixed(user);
            case SLIDING_LOG -> calls.log(user);
            case SLIDING_WINDOW -> calls.twoCounters(user);
            case TOKEN_BUCKET -> calls.bucket(user);
        }
    }

    @SpringBootApplication
    @Import({ Calls.class, Events.class })
    static class ClusterApp {

    }

    @Service
    static class Calls {

        @RateLimit(name = "fixed", key = "#user", window = "1h", max = 5)
        public void fixed(String user) {
        }

        @RateLimit(name = "log", key = "#user", window = "1h", max = 5, algorithm = Algorithm.SLIDING_LOG)
        public void log(String user) {
        }

        @RateLimit(name = "two-counters", key = "#user", window = "1d", max = 5, algorithm = Algorithm.SLIDING_WINDOW)
        public void twoCounters(String user) {
        }

        @RateLimit(name = "bucket", key = "#user", window = "1d", max = 5, algorithm = Algorithm.TOKEN_BUCKET)
        public void bucket(String user) {
        }

        @RateLimit(name = "tiers", key = "#user", window = "1h", max = 3, alertAt = 1, banFor = "10m")
        public void tiers(String user) {
        }

        @RateLimit(name = "several-minute", key = "#user", window = "1m", max = 2)
        @RateLimit(name = "several-hour", key = "#user", window = "1h", max = 100)
        public void several(String user) {
        }

    }

    @Component
    static class Events {

        final List<RateLimitAlertEvent> alerts = new CopyOnWriteArrayList<>();

        final List<RateLimitBanEvent> bans = new CopyOnWriteArrayList<>();

        @EventListener
        void alert(RateLimitAlertEvent event) {
            this.alerts.add(event);
        }

        @EventListener
        void ban(RateLimitBanEvent event) {
            this.bans.add(event);
        }

    }

}
