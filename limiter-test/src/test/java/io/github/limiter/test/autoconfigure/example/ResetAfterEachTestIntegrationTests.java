package io.github.limiter.test.autoconfigure.example;

import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The state one test leaves (counts, a ban, an alert and its recent event, a refusal the limiter
 * remembers) is gone when the next one starts, and only the limiter's keys are deleted.
 */
@SpringBootTest
@AutoConfigureLimiterRedis
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResetAfterEachTestIntegrationTests {

    private static final String OTHER_KEY = "not-the-limiter:kept";

    @Autowired
    QuoteService quotes;

    @Autowired
    RateLimitTester rateLimits;

    @Autowired
    RateLimiter rateLimiter;

    @Autowired
    RedisRateLimiter redisRateLimiter;

    @Autowired
    StringRedisTemplate redis;

    @Test
    @Order(1)
    void leavesABanARememberedRefusalAndAKeyOfAnotherApplication() {
        awaitRemembersRefusals();
        this.redis.opsForValue().set(OTHER_KEY, "value");
        this.rateLimits.ban(QuoteService.QUOTES, "mallory");
        // the alert and the ban are recorded by a script too, on a thread of their own
        assertThat(this.redisRateLimiter.awaitRecentEventsWritten(Duration.ofSeconds(5))).isTrue();
        long scriptCalls = scriptCalls();

        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("mallory"));
        assertThat(scriptCalls()).as("refused from memory, without a script call").isEqualTo(scriptCalls);
        assertThat(this.redis.keys("limiter:*")).contains("limiter:{quotes:mallory}", "limiter:{quotes:mallory}:ban",
                "limiter:events:{quotes}");
    }

    @Test
    @Order(2)
    void startsWithNoLimiterKeyNoRememberedRefusalAndTheOtherKeyKept() {
        assertThat(this.redis.keys("limiter:*")).isEmpty();
        assertThat(this.rateLimits.isBanned(QuoteService.QUOTES, "mallory")).isFalse();
        assertThat(this.quotes.quote("mallory")).isNotEmpty();
        assertThat(this.redis.opsForValue().getAndDelete(OTHER_KEY)).isEqualTo("value");
    }

    private void awaitRemembersRefusals() {
        // the limiter remembers refusals once it hears the other instances' unbans and resets
        RedisRateLimiter limiter = (RedisRateLimiter) this.rateLimiter;
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (!limiter.health().remembersRefusals()) {
            assertThat(Instant.now()).as("the limiter remembers refusals").isBefore(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private long scriptCalls() {
        Properties stats = this.redis.execute((RedisCallback<Properties>) connection -> connection.serverCommands()
            .info("commandstats"));
        return calls(stats, "cmdstat_evalsha") + calls(stats, "cmdstat_eval");
    }

    private static long calls(Properties stats, String command) {
        String line = stats.getProperty(command);
        return (line != null) ? Long.parseLong(line.replaceAll("^calls=(\\d+),.*$", "$1")) : 0;
    }

    @Nested
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class InANestedClass {

        @Test
        @Order(1)
        void usesUpAliceQuotes() {
            ResetAfterEachTestIntegrationTests.this.rateLimits.exhaust(QuoteService.QUOTES, "alice");
        }

        @Test
        @Order(2)
        void findsAliceServedAgain() {
            assertThat(ResetAfterEachTestIntegrationTests.this.quotes.quote("alice")).isNotEmpty();
        }

    }

}
