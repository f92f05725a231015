package io.github.limiter;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LimitTests {

    @Test
    void buildsTheAntiCrawlerTiers() {
        Limit limit = Limit.of(20, Duration.ofMinutes(1)).withAlertAt(10).withBanFor(Duration.ofMinutes(15));
        assertThat(limit).isEqualTo(new Limit(Algorithm.FIXED_WINDOW, 20, Duration.ofMinutes(1), 10, Duration.ofMinutes(15),
                Limit.Mode.ENFORCE));
    }

    @Test
    void rejectsInvalidTiers() {
        assertThatIllegalArgumentException().isThrownBy(() -> Limit.of(10, Duration.ofMinutes(1)).withAlertAt(10))
            .withMessageStartingWith("alertAt 10 must be less than max (10)");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> Limit.of(10, Duration.ofMinutes(1)).withBanFor(Duration.ZERO))
            .withMessageStartingWith("banFor PT0S is under 1 ms");
        assertThatIllegalArgumentException().isThrownBy(() -> Limit.of(0, Duration.ofMinutes(1)))
            .withMessage("max 0 must be at least 1");
    }

    @Test
    void boundsMaxSoThatScriptArithmeticStaysExact() {
        Duration day = Duration.ofDays(1);
        long largest = (1L << 53) / (3 * day.toMillis());
        assertThat(Limit.of(largest, day).withAlgorithm(Algorithm.TOKEN_BUCKET).max()).isEqualTo(largest);
        assertThatIllegalArgumentException()
            .isThrownBy(() -> Limit.of(largest + 1, day).withAlgorithm(Algorithm.SLIDING_WINDOW))
            .withMessage("max " + (largest + 1) + " is too large for PT24H with SLIDING_WINDOW: at most " + largest
                    + ", so that Redis's arithmetic stays exact");
        assertThat(new Limit(Algorithm.SLIDING_LOG, 1L << 53, day, 0, null, Limit.Mode.ENFORCE).max())
            .isEqualTo(1L << 53);
        // a fixed window's count stays below the mark its script adds while a ban binds (2^51)
        assertThat(Limit.of(1L << 49, day).max()).isEqualTo(1L << 49);
        assertThatIllegalArgumentException().isThrownBy(() -> Limit.of((1L << 49) + 1, day))
            .withMessage("max " + ((1L << 49) + 1) + " is too large for PT24H with FIXED_WINDOW: at most " + (1L << 49)
                    + ", so that Redis's arithmetic stays exact");
        assertThatIllegalArgumentException().isThrownBy(() -> Limit.of(10, Duration.ofDays(3651)))
            .withMessageContaining("is longer than 3650 days");
    }

    @Test
    void refusesACostThatCouldNeverPass() {
        Limit limit = Limit.of(20, Duration.ofMinutes(1));
        assertThatIllegalArgumentException().isThrownBy(() -> new LimitRequest("uploads", "u", limit, 21))
            .withMessage("cost 21 of a call under 'uploads' is more than its max of 20 per window: "
                    + "the call could never pass");
        assertThatIllegalArgumentException().isThrownBy(() -> new LimitRequest("uploads", "u", limit, -1))
            .withMessageContaining("is negative");
        assertThat(new LimitRequest("uploads", "u", limit, 0).cost()).isZero();
    }

}
