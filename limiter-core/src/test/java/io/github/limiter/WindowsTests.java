package io.github.limiter;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class WindowsTests {

    @ParameterizedTest
    @CsvSource({ "500ms, PT0.5S", "60s, PT1M", "1m, PT1M", "2h, PT2H", "1d, PT24H", "PT1M, PT1M", "pt90s, PT1M30S",
            "' 15s ', PT15S", "1h30m, PT1H30M", "2d12h, PT60H" })
    void parsesUnitsAndIso(String text, Duration expected) {
        assertThat(Windows.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "60", "-60", "s", "1.5s", "1 m", "10 minutes", "PT", "P1X", "1w", "abc", "${window}" })
    void rejectsOtherForms(String text) {
        assertThat(Windows.parse(text)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { "-5s", "0ms", "-PT1M" })
    void parsesNegativeAndZeroDurationsForTheWindowCheckToRefuse(String text) {
        assertThat(Windows.problemWith(Windows.parse(text))).isEqualTo("is under 1 ms");
    }

    @ParameterizedTest
    @ValueSource(strings = { "PT0S", "PT-1S", "PT0.0005S", "PT0.0015S" })
    void findsProblemsWithTooShortOrFractionalWindows(String iso) {
        assertThat(Windows.problemWith(Duration.parse(iso))).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { "PT0.001S", "PT1M", "P365D" })
    void acceptsWholeMillisecondWindows(String iso) {
        assertThat(Windows.problemWith(Duration.parse(iso))).isNull();
    }

}
