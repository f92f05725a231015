package io.github.limiter.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.KeyScan;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Service;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis is killed (SIGKILL) under concurrent load and restarted: errors happen only during the
 * outage, no key is left without a TTL, and limits are exact again afterwards.
 */
class RedisChaosIntegrationTests {

    @Test
    void killingRedisUnderLoadConfinesErrorsToTheOutage() throws Exception {
        EmbeddedRedis redis = EmbeddedRedis.start();
        int port = redis.port();
        String prefix = "chaos-" + UUID.randomUUID() + ":";
        SpringApplication application = new SpringApplication(ChaosApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        EmbeddedRedis restarted = null;
        try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + port,
                "--limiter.key-prefix=" + prefix)) {
            Calls calls = context.getBean(Calls.class);
            Timeline timeline = context.getBean(Timeline.class);
            AtomicBoolean loading = new AtomicBoolean(true);
            ExecutorService load = Executors.newFixedThreadPool(8);
            List<Future<?>> running = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                running.add(load.submit(() -> {
                    int i = 0;
                    while (loading.get()) {
                        try {
                            calls.burst("user-" + (i++ % 20));
                        }
                        catch (RateLimitExceededException ex) {
                            // over the limit or banned
                        }
                    }
                }));
            }
            long killedAt;
            long restartedAt;
            try {
                await(() -> timeline.decisions.get() > 500, "load before the crash");
                killedAt = System.nanoTime();
                redis.kill();
                await(() -> timeline.errors.size() > 20, "calls to fail while Redis is down");
                restartedAt = System.nanoTime();
                restarted = EmbeddedRedis.start(port);
                await(() -> timeline.lastDecision.get() > restartedAt
                        && timeline.decisions.get() > 0, "decisions after the restart");
                long recoveredAt = timeline.firstDecisionAfter(restartedAt);
                int before = timeline.decisions.get();
                await(() -> timeline.decisions.get() > before + 500, "load after the recovery");
                loading.set(false);
                for (Future<?> future : running) {
                    future.get(30, TimeUnit.SECONDS);
                }
                // in-flight calls may still fail while the connection comes back: allow a second
                long graceEnd = recoveredAt + TimeUnit.SECONDS.toNanos(1);
                assertThat(timeline.errors).as("errors confined to the outage")
                    .allSatisfy(at -> assertThat(at).isBetween(killedAt, graceEnd));
            }
            finally {
                loading.set(false);
                load.shutdownNow();
            }
            assertThat(keysWithoutTtl(restarted, prefix)).as("keys without TTL").isEmpty();

            String key = "exact-" + UUID.randomUUID();
            assertThat(Concurrency.countPassing(16, 10, () -> calls.exact(key), RateLimitExceededException.class))
                .as("exact again after the crash").isEqualTo(40);
        }
        finally {
            redis.close();
            if (restarted != null) {
                restarted.close();
            }
        }
    }

    private static List<String> keysWithoutTtl(EmbeddedRedis redis, String prefix) {
        return redis.withCommands(commands -> KeyScan.withoutTtl(commands, prefix));
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** When decisions and errors happened, by the JVM's monotonic clock. */
    static class Timeline implements RateLimitListener {

        final AtomicInteger decisions = new AtomicInteger();

        final AtomicLong lastDecision = new AtomicLong();

        final ConcurrentLinkedQueue<Long> decidedAt = new ConcurrentLinkedQueue<>();

        final ConcurrentLinkedQueue<Long> errors = new ConcurrentLinkedQueue<>();

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            long now = System.nanoTime();
            this.decisions.incrementAndGet();
            this.lastDecision.accumulateAndGet(now, Math::max);
            this.decidedAt.add(now);
        }

        @Override
        public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
            this.errors.add(System.nanoTime());
        }

        long firstDecisionAfter(long instant) {
            return this.decidedAt.stream().filter(at -> at > instant).min(Long::compare).orElseThrow();
        }

    }

    @SpringBootApplication
    @Import(Calls.class)
    static class ChaosApp {

        @Bean
        Timeline timeline() {
            return new Timeline();
        }

    }

    @Service
    static class Calls {

        @RateLimit(name = "burst", key = "#user", window = "5ms", max = 3, alertAt = 1, banFor = "5ms")
        public void burst(String user) {
        }

        @RateLimit(name = "exact", key = "#key", window = "1m", max = 40)
        public void exact(String key) {
        }

    }

}
