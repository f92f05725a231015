package io.github.limiter.instances;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.CallTimes;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances calling one partner through a policy with {@code max-wait}: the one
 * waits on its callers' threads, the other without a thread ({@code CompletableFuture}); every call
 * gets through in its turn, and never more than {@code max} of them in any window of the partner's.
 */
@WithRedis
class WaitingInstancesIntegrationTests {

    // when the partner was called, by every caller of both instances
    private static final CallTimes calledAt = new CallTimes();

    @Test
    void callersOnTwoInstancesWaitTheirTurnAndNeverPassMaxInAWindow() throws Exception {
        String prefix = "waiting-instances-" + UUID.randomUUID() + ":";
        calledAt.clear();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try (ConfigurableApplicationContext blocking = start(prefix);
                ConfigurableApplicationContext nonBlocking = start(prefix)) {
            Partner a = blocking.getBean(Partner.class);
            Partner b = nonBlocking.getBean(Partner.class);
            List<Future<?>> calls = new ArrayList<>();
            for (int caller = 0; caller < 2; caller++) {
                calls.add(callers.submit(() -> {
                    for (int call = 0; call < 3; call++) {
                        a.call();
                    }
                    return null;
                }));
            }
            List<CompletableFuture<String>> futures = new ArrayList<>();
            for (int call = 0; call < 6; call++) {
                futures.add(b.callLater());
            }
            for (Future<?> call : calls) {
                // none refused: each caller had its turn within max-wait
                call.get(30, TimeUnit.SECONDS);
            }
            assertThat(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)))
                .succeedsWithin(Duration.ofSeconds(30));
        }
        finally {
            callers.shutdownNow();
        }
        // a sliding log of 3 per 500ms: any 4 calls in a row span at least the window, less the
        // time from Redis's decision to the partner's call (well under 100ms)
        calledAt.assertNoMoreThan(12, 3, Duration.ofMillis(500), Duration.ofMillis(100));
    }

    private static ConfigurableApplicationContext start(String prefix) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application.run("--spring.main.banner-mode=off", "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + RedisServerExtension.redis().port(), "--limiter.key-prefix=" + prefix,
                "--limiter.policies.partner.algorithm=sliding-log", "--limiter.policies.partner.window=500ms",
                "--limiter.policies.partner.max=3", "--limiter.policies.partner.max-wait=10s");
    }

    // no component scan: the package has other applications' beans
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Partner.class)
    static class App {

    }

    /** The partner's API, which allows 3 calls per 500 ms from all our instances. */
    static class Partner {

        @RateLimit(name = "partner", policy = "partner", key = "'partner'")
        public void call() {
            calledAt.called();
        }

        @RateLimit(name = "partner", policy = "partner", key = "'partner'")
        public CompletableFuture<String> callLater() {
            calledAt.called();
            return CompletableFuture.completedFuture("called");
        }

    }

}
