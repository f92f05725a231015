package io.github.limiter.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.EmbeddedRedisSentinel;
import io.github.limiter.test.KeyScan;
import io.github.limiter.test.SentinelEvents;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A master, a replica and two sentinels; the application connects through the sentinels. A
 * failover during load loses no ban, leaves no key without a TTL, and the limiter decides exactly
 * again on the new master without an application restart.
 */
class RedisSentinelIntegrationTests {

    @Test
    void aFailoverDuringLoadLosesNoBanAndTheLimiterRecovers() throws Exception {
        String prefix = "sentinel-" + UUID.randomUUID() + ":";
        try (EmbeddedRedisSentinel redis = EmbeddedRedisSentinel.start(2)) {
            SpringApplication application = new SpringApplication(SentinelApp.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                    "--spring.data.redis.sentinel.master=" + EmbeddedRedisSentinel.MASTER,
                    "--spring.data.redis.sentinel.nodes=" + String.join(",", redis.sentinelNodes()),
                    "--limiter.key-prefix=" + prefix)) {
                Calls calls = context.getBean(Calls.class);
                RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);

                for (int call = 0; call < 4; call++) {
                    try {
                        calls.login("mallory");
                    }
                    catch (RateLimitExceededException ex) {
                        // the third call bans mallory
                    }
                }
                assertThat(limiter.isBanned("logins", "mallory")).isTrue();
                // the ban reaches the replica before the failover, as Redis replicates
                redis.await(() -> redis.onServer(1, commands -> commands.exists(prefix + "{logins:mallory}:ban")) == 1,
                        "the ban to replicate");

                AtomicBoolean loading = new AtomicBoolean(true);
                AtomicInteger calls0 = new AtomicInteger();
                ExecutorService load = Executors.newFixedThreadPool(4);
                List<Future<?>> running = new ArrayList<>();
                for (int thread = 0; thread < 4; thread++) {
                    int id = thread;
                    running.add(load.submit(() -> {
                        int i = 0;
                        while (loading.get()) {
                            try {
                                calls.read("reader-" + id + "-" + (i++ % 50));
                            }
                            catch (RateLimitExceededException ex) {
                                // over its limit
                            }
                            calls0.incrementAndGet();
                        }
                    }));
                }
                try (SentinelEvents events = redis.listen()) {
                    redis.await(() -> calls0.get() > 200, "load before the failover");
                    redis.failover();
                    events.awaitSwitch();
                    // the limiter follows the announcement at once; it used to wait for Sentinel to
                    // demote the old master, 10 s later, or 40 s when the sentinels stalled into TILT
                    // mode on a busy host, which failed this test after 30 s
                    String probe = "probe-" + UUID.randomUUID();
                    await("the limiter to decide on the new master; sentinels:\n" + events)
                        .atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(50))
                        .ignoreExceptions()
                        .until(() -> {
                            calls.read(probe);
                            return limiter.state("reads", probe, Limit.of(1000, Duration.ofMinutes(1))).count() > 0
                                    && redis.onServer(1,
                                            commands -> commands.exists(prefix + "{reads:" + probe + "}")) == 1;
                        });
                }
                finally {
                    loading.set(false);
                    for (Future<?> future : running) {
                        future.get(30, TimeUnit.SECONDS);
                    }
                    load.shutdown();
                }

                assertThat(limiter.isBanned("logins", "mallory")).as("the ban survived the failover").isTrue();
                assertThat(keysWithoutTtl(redis, prefix)).as("keys without TTL on the new master").isEmpty();

                String key = "after-" + UUID.randomUUID();
                Errors errors = context.getBean(Errors.class);
                errors.seen.clear();
                assertThat(Concurrency.countPassing(16, 10, () -> calls.exact(key), RateLimitExceededException.class))
                    .as("exact again after the failover; failed decisions: %s", errors.seen).isEqualTo(30);
            }
        }
    }

    private static List<String> keysWithoutTtl(EmbeddedRedisSentinel redis, String prefix) {
        return redis.onServer(1, commands -> KeyScan.withoutTtl(commands, prefix));
    }

    @SpringBootApplication
    @Import(Calls.class)
    static class SentinelApp {

        @Bean
        Errors errors() {
            return new Errors();
        }

    }

    /** The decisions that failed, to tell why a count is not exact. */
    static class Errors implements RateLimitListener {

        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
            this.seen.add(requests.get(0).limitId() + " after " + latency.toMillis() + " ms: " + error.getMessage());
        }

    }

    @Service
    static class Calls {

        @RateLimit(name = "logins", key = "#user", window = "1m", max = 2, banFor = "10m")
        public void login(String user) {
        }

        @RateLimit(name = "reads", key = "#user", window = "1m", max = 1000)
        public void read(String user) {
        }

        @RateLimit(name = "exact", key = "#key", window = "1m", max = 30)
        public void exact(String key) {
        }

    }

}
