package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitHeadersTests {

    private final LimitRequest perMinute = LimitRequest.of("answers", "alice", Limit.of(20, Duration.ofMinutes(1)));

    private final LimitRequest perHour = LimitRequest.of("hourly", "alice", Limit.of(100, Duration.ofHours(1)));

    private final Decision minute = new Decision("answers", "alice", Outcome.ALLOWED, 20, 5, 15, Duration.ZERO,
            Duration.ofMillis(29_200), false, false, false, false);

    private final Decision hour = new Decision("hourly", "alice", Outcome.ALLOWED, 100, 5, 95, Duration.ZERO,
            Duration.ofMinutes(50), false, false, false, false);

    @Test
    void writesBothSetsByDefault() {
        assertThat(RateLimitHeaders.of(Headers.BOTH, List.of(this.perMinute, this.perHour), List.of(this.minute, this.hour),
                this.minute))
            .containsEntry("RateLimit-Policy", "\"answers\";q=20;w=60, \"hourly\";q=100;w=3600")
            .containsEntry("RateLimit", "\"answers\";r=15;t=30, \"hourly\";r=95;t=3000")
            .containsEntry("X-RateLimit-Limit", "20")
            .containsEntry("X-RateLimit-Remaining", "15")
            .containsEntry("X-RateLimit-Reset", "30");
    }

    @Test
    void writesOnlyTheChosenSet() {
        assertThat(RateLimitHeaders.of(Headers.IETF, List.of(this.perMinute), List.of(this.minute), this.minute))
            .containsOnlyKeys("RateLimit-Policy", "RateLimit");
        assertThat(RateLimitHeaders.of(Headers.X_RATELIMIT, List.of(this.perMinute), List.of(this.minute), this.minute))
            .containsOnlyKeys("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
        assertThat(RateLimitHeaders.of(Headers.NONE, List.of(this.perMinute), List.of(this.minute), this.minute)).isEmpty();
    }

    @Test
    void aRejectedCallIsToldWhenItMayCallAgain() {
        Decision rejected = new Decision("answers", "alice", Outcome.REJECTED, 20, 20, 0, Duration.ofSeconds(12),
                Duration.ofSeconds(12), false, false, false, false);
        assertThat(RateLimitHeaders.of(Headers.BOTH, List.of(this.perMinute), List.of(rejected), rejected))
            .containsEntry("RateLimit", "\"answers\";r=0;t=12")
            .containsEntry("X-RateLimit-Reset", "12");
    }

    @Test
    void leavesShadowLimitsOutAndQuotesNamesSafely() {
        Decision shadow = new Decision("trial", "alice", Outcome.REJECTED, 1, 1, 0, Duration.ofSeconds(5),
                Duration.ofSeconds(5), false, false, true, false);
        LimitRequest trial = LimitRequest.of("trial", "alice", Limit.of(1, Duration.ofSeconds(5)));
        assertThat(RateLimitHeaders.of(Headers.BOTH, List.of(trial), List.of(shadow), shadow)).isEmpty();
        Decision quoted = new Decision("say\"hi\"", "alice", Outcome.ALLOWED, 20, 1, 19, Duration.ZERO,
                Duration.ofSeconds(1), false, false, false, false);
        assertThat(RateLimitHeaders.of(Headers.IETF, List.of(this.perMinute), List.of(quoted), quoted))
            .containsEntry("RateLimit-Policy", "\"say_hi_\";q=20;w=60");
    }

}
