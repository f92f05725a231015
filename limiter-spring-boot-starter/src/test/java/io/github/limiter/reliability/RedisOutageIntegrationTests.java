package io.github.limiter.reliability;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
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
import org.springframework.stereotype.Service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Redis stops under concurrent load and comes back: every call returns within the limiter's
 * timeout plus a small margin with its on-failure outcome, the failure is logged once, and
 * decisions are exact again after the restart, without restarting the application.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisOutageIntegrationTests {

    private static final long TIMEOUT_MS = 100;

    private static final long MARGIN_MS = 400;

    @Test
    void failsOpenOrClosedWithinTheTimeoutAndRecovers(CapturedOutput output) throws Exception {
        EmbeddedRedis redis = EmbeddedRedis.start();
        int port = redis.port();
        SpringApplication application = new SpringApplication(OutageApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + port,
                "--limiter.redis.timeout=" + TIMEOUT_MS + "ms", "--limiter.key-prefix=outage-" + UUID.randomUUID() + ":")) {
            Calls calls = context.getBean(Calls.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(calls.read("before")).isEqualTo("read");

            redis.close();
            AtomicLong slowest = new AtomicLong();
            AtomicInteger allowed = new AtomicInteger();
            AtomicInteger denied = new AtomicInteger();
            Concurrency.run(8, () -> {
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    if ("read".equals(calls.read("during"))) {
                        allowed.incrementAndGet();
                    }
                    try {
                        calls.login("during");
                    }
                    catch (RateLimitExceededException ex) {
                        if (ex.isFailure()) {
                            denied.incrementAndGet();
                        }
                    }
                    slowest.accumulateAndGet((System.nanoTime() - start) / 2, Math::max);
                }
            });
            assertThat(allowed.get()).as("reads fail open").isEqualTo(160);
            assertThat(denied.get()).as("logins fail closed").isEqualTo(160);
            assertThat(TimeUnit.NANOSECONDS.toMillis(slowest.get())).as("slowest call, ms")
                .isLessThanOrEqualTo(TIMEOUT_MS + MARGIN_MS);
            assertThat(meters.get("limiter.decisions").tag("outcome", "error").counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum()).as("errors counted").isGreaterThanOrEqualTo(320);
            assertThat(output.getOut().lines().filter(line -> line.contains("Rate limiting cannot reach Redis")))
                .as("logged once per failure streak").hasSize(1);

            EmbeddedRedis restarted = EmbeddedRedis.start(port);
            try {
                // Redis accepts connections once start returns: the limiter reconnects within its
                // bounded reconnect delay (1 s), not Lettuce's back-off of up to 30 s
                long restartedAt = System.nanoTime();
                long deadline = restartedAt + TimeUnit.SECONDS.toNanos(2);
                boolean recovered = false;
                while (!recovered && System.nanoTime() - deadline < 0) {
                    try {
                        calls.login("probe-" + System.nanoTime());
                        recovered = true;
                    }
                    catch (RateLimitExceededException ex) {
                        Thread.onSpinWait();
                    }
                }
                assertThat(recovered).as("decides again within 2 s, without an application restart").isTrue();
                String key = "after-" + UUID.randomUUID();
                assertThat(Concurrency.countPassing(16, 10, () -> calls.limited(key), RateLimitExceededException.class))
                    .isEqualTo(50);
                assertThat(output.getOut()).contains("Rate limiting's decisions succeed again");
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
    void aSlowRedisCostsACallAtMostTheTimeout() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            SpringApplication application = new SpringApplication(OutageApp.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                    "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port(),
                    "--limiter.redis.timeout=" + TIMEOUT_MS + "ms",
                    "--limiter.key-prefix=slow-" + UUID.randomUUID() + ":")) {
                Calls calls = context.getBean(Calls.class);
                assertThat(calls.read("warm")).isEqualTo("read");
                RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
                try (StatefulRedisConnection<String, String> connection = client.connect()) {
                    // Redis does nothing else for 1.5 s: every limiter call in that time times out
                    connection.async()
                        .dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                                new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add("1.5"));
                    AtomicLong slowest = new AtomicLong();
                    AtomicInteger allowed = new AtomicInteger();
                    Concurrency.run(4, () -> {
                        for (int i = 0; i < 5; i++) {
                            long start = System.nanoTime();
                            if ("read".equals(calls.read("slow"))) {
                                allowed.incrementAndGet();
                            }
                            slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                        }
                    });
                    assertThat(allowed.get()).isEqualTo(20);
                    assertThat(TimeUnit.NANOSECONDS.toMillis(slowest.get())).as("slowest call, ms")
                        .isLessThanOrEqualTo(TIMEOUT_MS + MARGIN_MS);
                    assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> calls.login("slow"))
                        .satisfies(ex -> assertThat(ex.isFailure()).isTrue());
                }
                finally {
                    client.shutdown();
                }
            }
        }
    }

    @SpringBootApplication
    @Import(Calls.class)
    static class OutageApp {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

    }

    @Service
    static class Calls {

        @RateLimit(key = "#user", window = "1m", max = 1000)
        public String read(String user) {
            return "read";
        }

        @RateLimit(key = "#user", window = "1m", max = 1000, onFailure = OnFailure.DENY)
        public String login(String user) {
            return "login";
        }

        @RateLimit(key = "#key", window = "1m", max = 50)
        public String limited(String key) {
            return "ok";
        }

    }

}
