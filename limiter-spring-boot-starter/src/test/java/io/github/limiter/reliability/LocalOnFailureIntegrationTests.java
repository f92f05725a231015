package io.github.limiter.reliability;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.EmbeddedRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis stops under concurrent calls of limits whose on-failure setting is {@code local}
 * ({@code limiter.redis.on-failure=local}): the instance enforces each limit in its own memory, so
 * a key gets exactly max calls and no more, another key still gets its own, and a ban holds; the
 * decisions say they were local, and the listeners, meters, events and log hear them. Once Redis is back the
 * counts are Redis's again, exactly.
 */
@ExtendWith(OutputCaptureExtension.class)
class LocalOnFailureIntegrationTests {

    private static final int MAX = 5;

    @Test
    void enforcesLimitsInMemoryWhileRedisIsDownAndRedisCountsOnceItIsBack(CapturedOutput output) throws Exception {
        EmbeddedRedis redis = EmbeddedRedis.start();
        int port = redis.port();
        SpringApplication application = new SpringApplication(LocalApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + port,
                "--limiter.redis.timeout=100ms", "--limiter.redis.on-failure=local",
                "--limiter.key-prefix=local-" + UUID.randomUUID() + ":")) {
            Calls calls = context.getBean(Calls.class);
            Decisions decisions = context.getBean(Decisions.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            calls.limited("before");
            assertThat(decisions.latest().local()).as("Redis decides while it is up").isFalse();

            redis.close();
            // 8 threads x 5 calls of one key, 5 of another, and a key that goes past its ban's max
            AtomicInteger refusedLocally = new AtomicInteger();
            int passed = Concurrency.countPassing(8, 5, () -> {
                try {
                    calls.limited("during");
                }
                catch (RateLimitExceededException ex) {
                    if (!ex.isFailure() && ex.getDecision().local()) {
                        refusedLocally.incrementAndGet();
                    }
                    throw ex;
                }
            }, RateLimitExceededException.class);
            assertThat(passed).as("one key, at most max on this instance, and not all refused").isEqualTo(MAX);
            assertThat(refusedLocally.get()).as("refused as over the limit (429), locally").isEqualTo(40 - MAX);
            assertThat(Concurrency.countPassing(1, MAX + 1, () -> calls.limited("other"),
                    RateLimitExceededException.class)).as("another key counts on its own").isEqualTo(MAX);
            assertThat(Concurrency.countPassing(1, 2, () -> calls.guarded("mallory"), RateLimitExceededException.class))
                .isEqualTo(1);
            RateLimitExceededException banned = refusal(() -> calls.guarded("mallory"));
            assertThat(banned.isBanned()).as("past max with a ban: banned locally").isTrue();
            assertThat(banned.getDecision().local()).isTrue();
            assertThat(decisions.latest().local()).as("the listeners hear the local decisions").isTrue();
            assertThat(meters.get("limiter.decisions.local").tag("outcome", "allowed").counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum()).isEqualTo(2 * MAX + 1);
            assertThat(meters.get("limiter.bans").tag("limit", "guarded").counter().count()).isEqualTo(1);
            assertThat(decisions.bans).as("the ban's event, once").containsExactly("guarded:mallory");
            assertThat(output.getOut()).contains("Rate limit 'guarded' ban: key 'mallory' went past 1 calls in its "
                    + "window and is banned for PT10M (decided in this instance's memory while Redis cannot decide)");
            assertThat(output.getOut().lines().filter(line -> line.contains("in this instance's memory while Redis "
                    + "cannot decide: each instance"))).as("logged once").hasSize(1);

            EmbeddedRedis restarted = EmbeddedRedis.start(port);
            try {
                // the limiter reconnects within its bounded reconnect delay (1 s)
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                do {
                    try {
                        calls.limited("probe");
                    }
                    catch (RateLimitExceededException ex) {
                        // refused locally, past max: the next call asks Redis again
                    }
                }
                while (decisions.latest().local() && System.nanoTime() - deadline < 0
                        && pause(Duration.ofMillis(1)));
                assertThat(decisions.latest().local()).as("Redis decides again within 3 s").isFalse();
                assertThat(output.getOut()).contains("decide in Redis again; the local counts of");
                // the restarted Redis has no counts: the key used during the outage is Redis's, exactly
                assertThat(Concurrency.countPassing(8, 5, () -> calls.limited("during"),
                        RateLimitExceededException.class)).isEqualTo(MAX);
                assertThat(decisions.latest().local()).isFalse();
            }
            finally {
                restarted.close();
            }
        }
        finally {
            redis.close();
        }
    }

    @Test
    void anInstanceStartedWhileRedisIsDownAllowsItsShareOfMax() throws Exception {
        int nothingListens;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        SpringApplication application = new SpringApplication(LocalApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + nothingListens,
                "--limiter.redis.timeout=100ms", "--limiter.redis.on-failure=local",
                "--limiter.redis.local-share=0.4", "--limiter.key-prefix=local-" + UUID.randomUUID() + ":")) {
            Calls calls = context.getBean(Calls.class);
            // 2 of max 5: what each of two or three instances may allow while Redis cannot decide
            assertThat(Concurrency.countPassing(2, 4, () -> calls.limited("share"), RateLimitExceededException.class))
                .isEqualTo(2);
            RateLimitExceededException refused = refusal(() -> calls.limited("share"));
            assertThat(refused.getDecision().local()).isTrue();
            assertThat(refused.getLimit()).as("the limit it was refused under, as this instance counts it")
                .isEqualTo(2);
        }
    }

    private static boolean pause(Duration pause) {
        java.util.concurrent.locks.LockSupport.parkNanos(pause.toNanos());
        return true;
    }

    private static RateLimitExceededException refusal(Runnable call) {
        try {
            call.run();
        }
        catch (RateLimitExceededException ex) {
            return ex;
        }
        throw new AssertionError("The call was not refused");
    }

    @SpringBootApplication
    @Import({ Calls.class, Decisions.class })
    static class LocalApp {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

    }

    @Service
    static class Calls {

        @RateLimit(key = "#key", window = "1m", max = MAX)
        public String limited(String key) {
            return "ok";
        }

        @RateLimit(name = "guarded", key = "#key", window = "1m", max = 1, banFor = "10m")
        public String guarded(String key) {
            return "ok";
        }

    }

    /** Hears every decision and every ban, as an application's listeners would. */
    static class Decisions implements RateLimitListener {

        private final List<Decision> bindings = new CopyOnWriteArrayList<>();

        private final List<String> bans = new CopyOnWriteArrayList<>();

        @EventListener
        void banned(RateLimitBanEvent event) {
            this.bans.add(event.limitId() + ":" + event.key());
        }

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            this.bindings.add(binding);
        }

        Decision latest() {
            return this.bindings.get(this.bindings.size() - 1);
        }

    }

}
