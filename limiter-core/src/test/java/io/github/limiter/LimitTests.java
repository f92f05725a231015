package io.github.limiter;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LimitTests {

    @Test
    void buildsTheAntiCrawlerTiers() {
        Limit limit = Limit.of(20, Duration.ofMinutes(1)).withAlertAt(10).withBanFor(Duration.ofMinutes(15));
        assertThat(limit).isEqualTo(new Limit(20, Duration.ofMinutes(1), 10, Duration.ofMinutes(15)));
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

}
