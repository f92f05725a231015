package io.github.limiter.reliability;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With Jedis, whose subscriptions do not survive a lost connection, Spring Data Redis's listener
 * container recovers the limiter's subscription to the other instances, and logs each failed
 * attempt at ERROR with its stack trace. While Redis is down, the attempts wait longer each time, up
 * to 10 s: a long outage writes one such line per 10 s, not one a second (the limiter's reconnect
 * delay); and once Redis is back, the instance hears the others again within those 10 s.
 */
@ExtendWith(OutputCaptureExtension.class)
class JedisSubscriptionRecoveryIntegrationTests {

    private static final String ATTEMPT = "Restarting subscription task";

    private static final Duration OUTAGE = Duration.ofSeconds(10);

    @Test
    void whileRedisIsDownTheSubscriptionIsRetriedWaitingLongerEachTimeUpToTenSeconds(CapturedOutput output) {
        EmbeddedRedis redis = EmbeddedRedis.start();
        int port = redis.port();
        EmbeddedRedis restarted = null;
        SpringApplication application = new SpringApplication(SubscribingApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off",
                "--spring.data.redis.client-type=jedis", "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + port, "--limiter.key-prefix=recovery-" + UUID.randomUUID() + ":")) {
            RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);
            await(Duration.ofSeconds(10), "the first subscription", () -> limiter.health().hearsOtherInstances());
            int before = attempts(output);

            redis.kill();
            await(Duration.ofSeconds(10), "the lost subscription", () -> !limiter.health().hearsOtherInstances());
            long downUntil = System.nanoTime() + OUTAGE.toNanos();
            while (System.nanoTime() - downUntil < 0) {
                // the outage lasts its time: nothing to wait for but the clock
                LockSupport.parkNanos(downUntil - System.nanoTime());
            }
            // waits of 50 ms doubling to 10 s: attempts at 0, 0.05, 0.15, 0.35, 0.75, 1.55, 3.15
            // and 6.35 s, 8 in 10 s; at most a second apart, they were 14
            assertThat(attempts(output) - before).as("failed attempts logged in %s of outage", OUTAGE)
                .isBetween(1, 9);

            restarted = EmbeddedRedis.start(port);
            await(Duration.ofSeconds(10 + 5), "the subscription after Redis's return",
                    () -> limiter.health().hearsOtherInstances());
        }
        finally {
            redis.close();
            if (restarted != null) {
                restarted.close();
            }
        }
    }

    private static int attempts(CapturedOutput output) {
        return (int) output.getOut().lines().filter((line) -> line.contains(ATTEMPT)).count();
    }

    private static void await(Duration within, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited %s for %s", within, what).isNegative();
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    @SpringBootApplication
    static class SubscribingApp {

    }

}
