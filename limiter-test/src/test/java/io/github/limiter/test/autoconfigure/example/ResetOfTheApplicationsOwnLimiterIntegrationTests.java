package io.github.limiter.test.autoconfigure.example;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.backoff.ExponentialBackOff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A reset forgets what a {@code RedisRateLimiter} the application built itself refuses from
 * memory, as it does for the starter's: the next call is decided by Redis again at once.
 */
@SpringBootTest
@AutoConfigureLimiterRedis
class ResetOfTheApplicationsOwnLimiterIntegrationTests {

    @Autowired
    QuoteService quotes;

    @Autowired
    RateLimitTester rateLimits;

    @Autowired
    RedisRateLimiter rateLimiter;

    @Test
    void aResetForgetsTheRefusalsTheApplicationsLimiterRemembers() {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (!this.rateLimiter.health().hearsOtherInstances()) {
            assertThat(Instant.now()).as("the application's limiter remembers refusals").isBefore(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        this.rateLimits.ban(QuoteService.QUOTES, "mallory");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("mallory"));

        this.rateLimits.resetAll();

        assertThat(this.quotes.quote("mallory")).as("decided by Redis, where the ban is gone").isNotEmpty();
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class OwnLimiter {

        @Bean(destroyMethod = "shutdownNow")
        ScheduledExecutorService limiterExecutor() {
            return Executors.newSingleThreadScheduledExecutor();
        }

        @Bean
        RedisRateLimiter rateLimiter(RedisConnectionFactory connectionFactory, ScheduledExecutorService executor) {
            RedisRateLimiter limiter = RedisRateLimiter.builder(new StringRedisTemplate(connectionFactory))
                .localCache(1000, Duration.ofMinutes(15))
                .invalidations(connectionFactory, Duration.ofSeconds(2), new ExponentialBackOff(50, 2), executor)
                .build();
            limiter.check();
            return limiter;
        }

    }

}
