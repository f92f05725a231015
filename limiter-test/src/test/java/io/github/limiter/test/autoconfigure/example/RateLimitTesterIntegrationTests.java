package io.github.limiter.test.autoconfigure.example;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import io.github.limiter.test.autoconfigure.RateLimitTester;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What {@link RateLimitTester} does to an application's limits, on the embedded Redis.
 */
@SpringBootTest
@AutoConfigureLimiterRedis
class RateLimitTesterIntegrationTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Autowired
    QuoteService quotes;

    @Autowired
    RateLimitTester rateLimits;

    @Autowired
    LimiterEvents events;

    @BeforeEach
    void forgetEventsOfOtherTests() {
        this.events.clear();
    }

    @Test
    void limitIsTheDeclaredOneWithItsTiers() {
        assertThat(this.rateLimits.limit(QuoteService.QUOTES)).satisfies(limit -> {
            assertThat(limit.max()).isEqualTo(3);
            assertThat(limit.window()).isEqualTo(Duration.ofSeconds(60));
            assertThat(limit.alertAt()).isEqualTo(2);
            assertThat(limit.banFor()).isEqualTo(Duration.ofMinutes(15));
        });
    }

    @Test
    void exhaustUsesUpWhatIsLeftAndRaisesTheAlertOnceAsCallsWould() {
        this.quotes.quote("alice");

        this.rateLimits.exhaust(QuoteService.QUOTES, "alice");

        assertThat(this.rateLimits.state(QuoteService.QUOTES, "alice").count()).isEqualTo(3);
        assertThat(this.events.heard()).containsExactly(
                new RateLimitAlertEvent(QuoteService.QUOTES, "alice", 3, 2, Duration.ofSeconds(60)));
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("alice"))
            .satisfies(refused -> assertThat(refused.isBanned()).isTrue());
    }

    @Test
    void exhaustingAnExhaustedKeyNeverBansIt() {
        this.rateLimits.exhaust(QuoteService.QUOTES, "alice");
        this.rateLimits.exhaust(QuoteService.QUOTES, "alice");

        assertThat(this.rateLimits.isBanned(QuoteService.QUOTES, "alice")).isFalse();
        assertThat(this.rateLimits.state(QuoteService.QUOTES, "alice").count()).isEqualTo(3);
    }

    @Test
    void awaitRoomStartsTheCallsWhereTheWindowHoldsThemAll() {
        // a window of a second is a second of Redis's clock: five calls fit it only where it has room
        for (int round = 0; round < 3; round++) {
            this.rateLimits.awaitRoom(QuoteService.PINGS, Duration.ofMillis(800));
            this.rateLimits.reset(QuoteService.PINGS, "alice");
            for (int call = 0; call < 5; call++) {
                assertThat(this.quotes.ping("alice")).isEqualTo("pong");
            }
            assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.ping("alice"))
                .satisfies(refused -> assertThat(refused.getRetryAfter()).isPositive()
                    .isLessThanOrEqualTo(Duration.ofSeconds(1)));
        }
    }

    @Test
    void awaitRoomRefusesWhatNoWindowCanGive() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.rateLimits.awaitRoom(QuoteService.PINGS, Duration.ofSeconds(2)))
            .withMessage("Limit 'pings' has windows of PT1S, which have no room for PT2S");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.rateLimits.awaitRoom(QuoteService.EXPORTS, Duration.ofSeconds(1)))
            .withMessage("Limit 'exports' counts with TOKEN_BUCKET, whose windows are not periods of the clock: it "
                    + "has no window to wait for");
    }

    @Test
    void aCalendarLimitIsExhaustedUntilTheNextMonthStartsInItsZone() {
        Instant before = Instant.now();
        this.rateLimits.exhaust(QuoteService.REPORTS, "alice");
        this.rateLimits.awaitRoom(QuoteService.REPORTS, Duration.ofSeconds(1));

        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.report("alice"))
            .satisfies(refused -> assertThat(refused.getRetryAfter())
                .isLessThanOrEqualTo(Duration.between(before, CalendarWindow.MONTH.end(before, BERLIN)))
                .isGreaterThan(Duration.between(before, CalendarWindow.MONTH.end(before, BERLIN)).minusMinutes(1)));
        assertThat(this.rateLimits.limit(QuoteService.REPORTS))
            .isEqualTo(Limit.of(2, CalendarWindow.MONTH, BERLIN));
    }

    @Test
    void exhaustUsesUpATokenBucket() {
        this.rateLimits.exhaust(QuoteService.EXPORTS, "alice");

        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.export("alice"));
        assertThat(this.quotes.export("bob")).isNotEmpty();
    }

    @Test
    void banBansTheKeyForTheLimitsBanAndTellsTheApplication() {
        this.rateLimits.ban(QuoteService.QUOTES, "mallory");

        assertThat(this.rateLimits.state(QuoteService.QUOTES, "mallory").banTimeLeft())
            .isBetween(Duration.ofMinutes(14), Duration.ofMinutes(15));
        assertThat(this.events.heard()).contains(new RateLimitBanEvent(QuoteService.QUOTES, "mallory",
                Duration.ofMinutes(15)));
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("mallory"))
            .satisfies(refused -> assertThat(refused.isBanned()).isTrue());
    }

    @Test
    void banIsRefusedForALimitWithoutBan() {
        assertThatIllegalStateException().isThrownBy(() -> this.rateLimits.ban(QuoteService.EXPORTS, "alice"))
            .withMessageContaining("'exports' has no ban tier");
    }

    @Test
    void unknownLimitIdIsRefusedNamingTheDeclaredOnes() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.rateLimits.exhaust("quote", "alice"))
            .withMessageContaining("'quote'")
            .withMessageContaining("[exports, pings, quotes, reports]");
    }

    @Test
    void resetForgetsOneKeyAndLeavesTheOthers() {
        this.rateLimits.ban(QuoteService.QUOTES, "mallory");
        this.rateLimits.exhaust(QuoteService.QUOTES, "alice");

        this.rateLimits.reset(QuoteService.QUOTES, "mallory");

        assertThat(this.rateLimits.isBanned(QuoteService.QUOTES, "mallory")).isFalse();
        assertThat(this.quotes.quote("mallory")).isNotEmpty();
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.quotes.quote("alice"));
    }

}
