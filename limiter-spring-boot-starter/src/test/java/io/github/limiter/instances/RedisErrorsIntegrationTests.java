package io.github.limiter.instances;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.EmbeddedRedis;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static io.github.limiter.instances.Instance.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A Redis that stays reachable but answers decisions with errors: each is named for what it is
 * (not "cannot reach Redis") in the log, once per streak, in the {@code limiter.errors} meter and
 * in health, which is not UP while decisions fail although Redis answers every PING.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisErrorsIntegrationTests {

    private final String prefix = "errors-" + UUID.randomUUID() + ":";

    @Test
    void anOutOfMemoryRedisIsNamedAndAFailClosedLimitRefuses(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                Instance instance = Instance.start(redis.port(), this.prefix, "limiter.redis.on-failure=deny")) {
            assertThat(instance.crawl("alice")).isTrue();
            // noeviction, and a byte of memory: Redis refuses every write, and answers everything else
            config(redis, "maxmemory-policy", "noeviction");
            config(redis, "maxmemory", "1");
            for (int call = 0; call < 20; call++) {
                assertThatExceptionOfType(RateLimitExceededException.class)
                    .isThrownBy(() -> instance.bean(Instance.Calls.class).crawl("bob"))
                    .matches(RateLimitExceededException::isFailure, "refused because Redis could not decide");
            }
            assertThat(output.getOut().lines()
                .filter(line -> line.contains("Rate limiting's decisions fail: Redis is out of memory")))
                .as("one line, naming the failure").hasSize(1)
                .allMatch(line -> line.contains("(oom: OOM command not allowed"));
            assertThat(output.getOut()).doesNotContain("cannot reach Redis");
            assertThat(errors(instance, "oom")).isEqualTo(20);

            Health health = instance.limiterHealth();
            assertThat(health.getStatus()).as("Redis answers PING, but decisions fail, and fail closed")
                .isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("errorKind", "oom")
                .containsEntry("limitsFailClosed", true)
                .containsEntry("failedDecisions", 20L);
            assertThat(String.valueOf(health.getDetails().get("error"))).contains("OOM command not allowed");

            config(redis, "maxmemory", "0");
            assertThat(instance.crawl("carol")).isTrue();
            assertThat(instance.health()).isEqualTo(Status.UP);
            assertThat(output.getOut()).contains("Rate limiting's decisions succeed again (after 20 failed, the last oom)");
        }
    }

    @Test
    void aReplicaIsNamedReadOnlyAndAFailOpenLimitDegradesHealth(CapturedOutput output) {
        try (EmbeddedRedis master = EmbeddedRedis.start(); EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
            replica.awaitMasterLinkUp();
            // the check at start writes, so the application starts on the master, which then turns replica
            try (Instance instance = Instance.start(master.port(), this.prefix)) {
                replica.withCommands(commands -> commands.replicaofNoOne());
                master.withCommands(commands -> commands.replicaof(replica.host(), replica.port()));
                await(Duration.ofSeconds(10), "the first master to answer as a replica", () -> {
                    assertThat(instance.crawl("dave")).as("fails open").isTrue();
                    return errors(instance, "readonly") > 0;
                });
                Health health = instance.limiterHealth();
                assertThat(health.getStatus().getCode()).as("fails open: not UP, yet in service").isEqualTo("DEGRADED");
                assertThat(health.getDetails()).containsEntry("errorKind", "readonly")
                    .containsEntry("limitsFailClosed", false);
                assertThat(output.getOut()).contains("Rate limiting's decisions fail: Redis answered as a read-only "
                        + "replica (readonly: READONLY You can't write against a read only replica.");
            }
        }
    }

    @Test
    void aKeyOfAnotherTypeIsNamed(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); Instance instance = Instance.start(redis.port(), this.prefix)) {
            redis.withCommands(commands -> commands.lpush(this.prefix + "{" + Instance.CRAWL + ":erin}", "not a count"));
            assertThat(instance.crawl("erin")).as("fails open").isTrue();
            assertThat(errors(instance, "wrongtype")).isEqualTo(1);
            assertThat(output.getOut()).contains("Rate limiting's decisions fail: a limiter key holds a value of "
                    + "another type (wrongtype: ");
            assertThat(instance.limiterHealth().getDetails()).containsEntry("errorKind", "wrongtype");
        }
    }

    private static double errors(Instance instance, String kind) {
        return instance.meters()
            .find("limiter.errors")
            .tag("kind", kind)
            .counters()
            .stream()
            .mapToDouble(Counter::count)
            .sum();
    }

    private static void config(EmbeddedRedis redis, String name, String value) {
        redis.withCommands(commands -> commands.configSet(Map.of(name, value)));
    }

}
