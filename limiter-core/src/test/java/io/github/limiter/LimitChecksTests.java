package io.github.limiter;

import java.time.Duration;

import io.github.limiter.LimitChecks.Field;
import io.github.limiter.LimitChecks.Problem;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LimitChecksTests {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void acceptsACompletePolicyAndOneThatLeavesMaxToTheAnnotation() {
        assertThat(LimitChecks.problems(null, MINUTE, 20L, 10L, Duration.ofMinutes(15))).isEmpty();
        assertThat(LimitChecks.problems(null, MINUTE, null, null, null)).isEmpty();
        assertThat(LimitChecks.problems(null, MINUTE, null, 10L, null)).isEmpty();
    }

    @Test
    void findsAMissingWindow() {
        assertThat(LimitChecks.problems(null, null, 20L, null, null))
            .containsExactly(new Problem(Field.WINDOW, "", "is not set; every limit needs a window or a calendar"));
    }

    @Test
    void findsZeroAndNegativeDurations() {
        assertThat(LimitChecks.problems(null, Duration.ZERO, 20L, null, Duration.ofSeconds(-5))).extracting(Problem::field)
            .containsExactly(Field.WINDOW, Field.BAN_FOR);
    }

    @Test
    void findsAlertAtNotBelowMax() {
        assertThat(LimitChecks.problems(null, MINUTE, 10L, 10L, null)).extracting(Problem::field)
            .containsExactly(Field.ALERT_AT);
        assertThat(LimitChecks.problems(null, MINUTE, 10L, 0L, null)).extracting(Problem::message)
            .containsExactly("must be at least 1");
    }

    @Test
    void findsABanWithoutMax() {
        assertThat(LimitChecks.problems(null, MINUTE, null, null, Duration.ofMinutes(15))).containsExactly(
                new Problem(Field.BAN_FOR, "PT15M", "needs a max: a key is banned when it goes past max"));
    }

    @Test
    void findsMaxBelowOne() {
        assertThat(LimitChecks.check(io.github.limiter.Algorithm.FIXED_WINDOW, MINUTE, 0, null, null)).extracting(Problem::field).isEqualTo(Field.MAX);
    }

    @Test
    void namesFieldsAsTheAnnotationAndThePropertiesDo() {
        assertThat(Field.ALERT_AT.attribute()).isEqualTo("alertAt");
        assertThat(Field.ALERT_AT.property()).isEqualTo("alert-at");
        assertThat(Field.BAN_FOR.property()).isEqualTo("ban-for");
    }

}
