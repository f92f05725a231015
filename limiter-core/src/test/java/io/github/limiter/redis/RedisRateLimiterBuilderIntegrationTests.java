package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitListener;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link RedisRateLimiter#builder}: the one way to make the engine, with and without the Spring
 * Boot starter.
 */
@WithRedis
class RedisRateLimiterBuilderIntegrationTests {

    private static final StringRedisTemplate template = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String keyPrefix = "builder-" + UUID.randomUUID() + ":";

    @Test
    void buildsALimiterWithoutSpringBoot() {
        RedisRateLimiter limiter = RedisRateLimiter.builder(template)
            .keyPrefix(keyPrefix)
            .localCache(10_000, Duration.ofMinutes(10))
            .build();
        limiter.check();
        Decision decision = limiter.tryAcquire("quotes", "alice", Limit.of(20, Duration.ofMinutes(1)));
        this.closing.add(limiter);

        assertThat(decision.allowed()).isTrue();
        assertThat(decision.remaining()).isEqualTo(19);
        assertThat(template.hasKey(this.keyPrefix + "{quotes:alice}")).isTrue();
        assertThat(limiter.health().remembersRefusals()).as("the local cache").isTrue();
    }

    @Test
    void theDefaultsAreTheStartersDefaults() {
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(template).build());
        String user = "defaults-" + UUID.randomUUID();
        try {
            limiter.tryAcquire("quotes", user, Limit.of(20, Duration.ofMinutes(1)));
            assertThat(template.hasKey("limiter:{quotes:" + user + "}")).as("the prefix limiter:").isTrue();
            assertThat(limiter.runners.coalescing()).as("coalescing on Lettuce's shared connection").isNotNull();
            assertThat(limiter.health().remembersRefusals()).as("no local cache").isFalse();
            assertThat(limiter.getObservationRegistry().isNoop()).isTrue();
        }
        finally {
            limiter.reset("quotes", user);
        }
    }

    @Test
    void tellsItsListenersInOrderAndPublishesAlertsAndBans() {
        List<Object> told = new CopyOnWriteArrayList<>();
        RateLimitListener first = new RateLimitListener() {

            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                told.add("first " + binding.outcome());
            }

        };
        TestObservationRegistry registry = TestObservationRegistry.create();
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(template)
            .keyPrefix(this.keyPrefix)
            .listeners(List.of(first))
            .publishEvents(told::add)
            .maxBatch(1)
            .observations(registry, null)
            .build());
        Limit oneThenBan = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(5));
        limiter.tryAcquire("logins", "mallory", oneThenBan);
        limiter.tryAcquire("logins", "mallory", oneThenBan);

        assertThat(told).containsExactly("first ALLOWED", "first BANNED",
                new RateLimitBanEvent("logins", "mallory", Duration.ofMinutes(5)));
        assertThat(limiter.runners.coalescing()).as("maxBatch 1: none coalesced").isNull();
        assertThat(registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 2);
    }

    @Test
    void closingStopsTheTimerItStartedAndFailsADecisionThatStillWaits(EmbeddedRedis server) {
        LettuceConnectionFactory connection = server.newConnectionFactory();
        try {
            long timersBefore = deadlineTimers();
            RedisRateLimiter limiter = RedisRateLimiter.builder(new StringRedisTemplate(connection))
                .keyPrefix(this.keyPrefix)
                .build();
            limiter.check();
            assertThat(deadlineTimers()).as("a timer of its own").isEqualTo(timersBefore + 1);
            server.withCommands(commands -> commands.clientPause(3000));
            CompletableFuture<Decision> waiting = limiter
                .tryAcquireAsync("quotes", "alice", Limit.of(20, Duration.ofMinutes(1)))
                .toCompletableFuture();
            assertThat(waiting).as("held by the pause").isNotDone();

            limiter.close();

            assertThat(waiting).as("failed at once, not at its deadline")
                .failsWithin(Duration.ofMillis(500))
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(DataAccessResourceFailureException.class);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (deadlineTimers() > timersBefore && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(deadlineTimers()).as("the timer's thread ended").isEqualTo(timersBefore);
        }
        finally {
            connection.destroy();
        }
    }

    private static long deadlineTimers() {
        return Thread.getAllStackTraces()
            .keySet()
            .stream()
            .filter(thread -> thread.isAlive() && thread.getName().equals("limiter-decision-deadlines"))
            .count();
    }

    @Test
    void refusesABatchUnderOne() {
        assertThatIllegalArgumentException().isThrownBy(() -> RedisRateLimiter.builder(template).maxBatch(0).build())
            .withMessage("maxBatch must be at least 1, not 0");
    }

}
