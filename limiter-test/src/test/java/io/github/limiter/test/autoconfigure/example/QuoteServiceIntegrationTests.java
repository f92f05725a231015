package io.github.limiter.test.autoconfigure.example;

import java.time.Duration;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The examples of docs/testing.md: a test of an application's own rate-limited service, on a real
 * Redis, with the limiter's state reset after each test.
 */
@SpringBootTest
@AutoConfigureLimiterRedis
class QuoteServiceIntegrationTests {

    @Autowired
    QuoteService quotes;

    @Autowired
    RateLimitTester rateLimits;

    @Test
    void fourthQuoteInAMinuteIsRefused() {
        // the window is a minute of Redis's clock: start where it has room for the calls
        this.rateLimits.awaitRoom(QuoteService.QUOTES, Duration.ofSeconds(5));
        for (int i = 0; i < 3; i++) {
            this.quotes.quote("alice");
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("alice"));
    }

    @Test
    void sixthPingInASecondIsRefused() {
        this.rateLimits.awaitRoom(QuoteService.PINGS, Duration.ofMillis(800));
        for (int i = 0; i < 5; i++) {
            this.quotes.ping("alice");
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.ping("alice"));
    }

    @Test
    void eachTestStartsWithAFreshCount() {
        // other tests here use up alice's quotes and get her banned; each test starts afresh
        for (int i = 0; i < 3; i++) {
            assertThat(this.quotes.quote("alice")).isNotEmpty();
        }
    }

    @Test
    void exhaustedUserIsRefusedWhileOthersAreServed() {
        this.rateLimits.exhaust(QuoteService.QUOTES, "alice");

        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("alice"))
            .satisfies(refused -> assertThat(refused.getRetryAfter()).isPositive());
        assertThat(this.quotes.quote("bob")).isNotEmpty();
    }

    @Test
    void bannedUserIsRefusedAsBanned() {
        this.rateLimits.ban(QuoteService.QUOTES, "mallory");

        assertThat(this.rateLimits.isBanned(QuoteService.QUOTES, "mallory")).isTrue();
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("mallory"))
            .satisfies(refused -> assertThat(refused.isBanned()).isTrue());
    }

    @Test
    void stateCountsTheCallsOfTheWindow() {
        this.quotes.quote("alice");
        this.quotes.quote("alice");

        assertThat(this.rateLimits.state(QuoteService.QUOTES, "alice").count()).isEqualTo(2);
        assertThat(this.rateLimits.state(QuoteService.QUOTES, "bob").count()).isZero();
    }

}
