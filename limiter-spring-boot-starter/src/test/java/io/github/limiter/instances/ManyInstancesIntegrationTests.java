package io.github.limiter.instances;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;

import static io.github.limiter.instances.Instance.CRAWL;
import static io.github.limiter.instances.Instance.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances on one real Redis: a ban on one refuses on the other, and an unban or a
 * reset on either clears the refusal on both within a second, also on an instance that started
 * while Redis was down, and on both after Redis restarted.
 */
class ManyInstancesIntegrationTests {

    private static final Duration WITHIN = Duration.ofSeconds(1);

    private static final Duration SUBSCRIBED_WITHIN = Duration.ofSeconds(5);

    private final String prefix = "instances-" + UUID.randomUUID() + ":";

    @Test
    void aBanOnOneInstanceRefusesOnTheOtherAndAnUnbanOrResetOnEitherClearsBoth() {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                Instance a = Instance.start(redis.port(), this.prefix);
                Instance b = Instance.start(redis.port(), this.prefix)) {
            awaitSubscribed(a, b);
            banOn(a, "mallory");
            assertRefusedFromMemory(redis, b, "mallory");
            assertThat(a.limiter().unban(CRAWL, "mallory")).isTrue();
            await(WITHIN, "unban on A reaches B", () -> b.crawl("mallory"));

            banOn(b, "trudy");
            assertRefusedFromMemory(redis, a, "trudy");
            b.limiter().reset(CRAWL, "trudy");
            await(WITHIN, "reset on B reaches A", () -> a.crawl("trudy"));
        }
    }

    @Test
    void anInstanceStartedWhileRedisWasDownSubscribesOnceRedisIsUp() {
        int port = reservedPort();
        try (Instance early = Instance.start(port, this.prefix)) {
            assertThat(early.subscribed()).isFalse();
            // its one limit fails open: not UP, and not out of service
            assertThat(early.health().getCode()).isEqualTo("DEGRADED");
            assertThat(early.meters().get("limiter.invalidations.subscribed").gauge().value()).isZero();
            try (EmbeddedRedis redis = EmbeddedRedis.start(port); Instance late = Instance.start(port, this.prefix)) {
                awaitSubscribed(early, late);
                assertThat(early.health()).isEqualTo(Status.UP);
                assertThat(early.meters().get("limiter.invalidations.subscribed").gauge().value()).isOne();
                banOn(late, "mallory");
                assertRefusedFromMemory(redis, early, "mallory");
                late.limiter().unban(CRAWL, "mallory");
                await(WITHIN, "unban on the late instance reaches the early one", () -> early.crawl("mallory"));
            }
        }
    }

    @Test
    void afterRedisRestartsBothInstancesDecideWithinTwoSecondsAndHearUnbansAgain() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        int port = redis.port();
        EmbeddedRedis restarted = null;
        try (Instance a = Instance.start(port, this.prefix); Instance b = Instance.start(port, this.prefix)) {
            awaitSubscribed(a, b);
            banOn(a, "mallory");
            assertRefusedFromMemory(redis, b, "mallory");
            redis.kill();
            await(SUBSCRIBED_WITHIN, "both to notice the lost subscription", () -> !a.subscribed() && !b.subscribed());
            // calls go on for 3 s while Redis is down (long enough for Lettuce's own back-off to
            // reach seconds): each returns within the timeout and a small margin
            long slowest = 0;
            long downUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() - downUntil < 0) {
                long start = System.nanoTime();
                assertThat(a.crawl("during-" + start)).as("allowed on failure").isTrue();
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(slowest)).as("slowest call while Redis is down, ms")
                .isLessThanOrEqualTo(100 + 400);
            restarted = EmbeddedRedis.start(port);
            // the restarted Redis has no data: a decision is exact once the script counts again
            // each instance reconnects on its own back-off: both decide exactly within 2 s
            long restartedAt = System.nanoTime();
            for (Instance instance : List.of(a, b)) {
                await(Duration.ofSeconds(2).minusNanos(System.nanoTime() - restartedAt),
                        "an exact decision after the restart", () -> decidesExactly(instance));
            }
            awaitSubscribed(a, b);
            banOn(b, "trudy");
            assertRefusedFromMemory(restarted, a, "trudy");
            b.limiter().unban(CRAWL, "trudy");
            await(WITHIN, "unban on B reaches A after the restart", () -> a.crawl("trudy"));
        }
        finally {
            redis.close();
            if (restarted != null) {
                restarted.close();
            }
        }
    }

    /** Whether a decision on a fresh key counts exactly; failures to decide are "not yet". */
    private static boolean decidesExactly(Instance instance) {
        try {
            return instance.limiter().tryAcquire("probe", UUID.randomUUID().toString(), 5, Duration.ofMinutes(1))
                .remaining() == 4;
        }
        catch (RuntimeException ex) {
            return false;
        }
    }

    private static void awaitSubscribed(Instance... instances) {
        for (Instance instance : instances) {
            await(SUBSCRIBED_WITHIN, "subscribed to unbans and resets", instance::subscribed);
        }
    }

    /** Reads past the limit of 3: the fourth read bans the user for 15 minutes. */
    private static void banOn(Instance instance, String user) {
        for (int read = 0; read < 3; read++) {
            assertThat(instance.crawl(user)).isTrue();
        }
        assertThat(instance.crawl(user)).isFalse();
        assertThat(instance.limiter().isBanned(CRAWL, user)).isTrue();
        // the ban's recent event is written by a script of its own, which the counts below must not see
        instance.awaitRecentEventsWritten();
    }

    /** The instance refuses the user, and remembers it: further refusals run no script. */
    private static void assertRefusedFromMemory(EmbeddedRedis redis, Instance instance, String user) {
        assertThat(instance.crawl(user)).as("refused by Redis").isFalse();
        long scripts = scriptCalls(redis);
        for (int call = 0; call < 10; call++) {
            assertThat(instance.crawl(user)).isFalse();
        }
        assertThat(scriptCalls(redis)).as("10 refusals from memory run no script").isEqualTo(scripts);
    }

    private static long scriptCalls(EmbeddedRedis redis) {
        return redis.commandCalls().getOrDefault("evalsha", 0L);
    }

    private static int reservedPort() {
        EmbeddedRedis probe = EmbeddedRedis.start();
        probe.close();
        return probe.port();
    }

}
