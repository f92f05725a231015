package io.github.limiter;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Calendar periods as the zone's calendar has them, across daylight-saving changes: in
 * {@code Europe/Berlin} the day of 2026-03-29 is 23 hours long and that of 2026-10-25 25 hours, and
 * so the months, weeks and years around them are an hour shorter or longer.
 */
class CalendarWindowTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @ParameterizedTest
    @CsvSource({ "2026-03-29T10:00:00Z, 2026-03-28T23:00:00Z, 2026-03-29T22:00:00Z, 23",
            "2026-10-25T11:00:00Z, 2026-10-24T22:00:00Z, 2026-10-25T23:00:00Z, 25",
            "2026-11-26T11:00:00Z, 2026-11-25T23:00:00Z, 2026-11-26T23:00:00Z, 24" })
    void theDaysTheClocksChangeAreTwentyThreeAndTwentyFiveHours(Instant noon, Instant start, Instant end, int hours) {
        assertThat(CalendarWindow.DAY.start(noon, BERLIN)).isEqualTo(start);
        assertThat(CalendarWindow.DAY.end(noon, BERLIN)).isEqualTo(end);
        assertThat(length(CalendarWindow.DAY, noon, BERLIN)).isEqualTo(Duration.ofHours(hours));
    }

    @Test
    void monthsWithAChangeAreAnHourShorterOrLonger() {
        Instant march = Instant.parse("2026-03-15T12:00:00Z");
        assertThat(CalendarWindow.MONTH.start(march, BERLIN)).isEqualTo(Instant.parse("2026-02-28T23:00:00Z"));
        assertThat(CalendarWindow.MONTH.end(march, BERLIN)).isEqualTo(Instant.parse("2026-03-31T22:00:00Z"));
        assertThat(length(CalendarWindow.MONTH, march, BERLIN)).isEqualTo(Duration.ofDays(31).minusHours(1));
        Instant october = Instant.parse("2026-10-31T22:30:00Z"); // 23:30 on the 31st in Berlin
        assertThat(CalendarWindow.MONTH.start(october, BERLIN)).isEqualTo(Instant.parse("2026-09-30T22:00:00Z"));
        assertThat(CalendarWindow.MONTH.end(october, BERLIN)).isEqualTo(Instant.parse("2026-10-31T23:00:00Z"));
        assertThat(length(CalendarWindow.MONTH, october, BERLIN)).isEqualTo(Duration.ofDays(31).plusHours(1));
        // the last half hour of October in Berlin is already November in UTC
        assertThat(CalendarWindow.MONTH.start(october, ZoneOffset.UTC))
            .isEqualTo(Instant.parse("2026-10-01T00:00:00Z"));
    }

    @Test
    void aWeekIsAnIsoWeekFromMonday() {
        // Wednesday 2026-03-25; its week ends on Sunday the 29th, the day the clocks go forward
        Instant wednesday = Instant.parse("2026-03-25T12:00:00Z");
        assertThat(CalendarWindow.WEEK.start(wednesday, BERLIN)).isEqualTo(Instant.parse("2026-03-22T23:00:00Z"));
        assertThat(CalendarWindow.WEEK.end(wednesday, BERLIN)).isEqualTo(Instant.parse("2026-03-29T22:00:00Z"));
        assertThat(length(CalendarWindow.WEEK, wednesday, BERLIN)).isEqualTo(Duration.ofDays(7).minusHours(1));
        // a Sunday's last hour, and the Monday after it
        assertThat(CalendarWindow.WEEK.start(Instant.parse("2026-03-29T21:59:59Z"), BERLIN))
            .isEqualTo(Instant.parse("2026-03-22T23:00:00Z"));
        assertThat(CalendarWindow.WEEK.start(Instant.parse("2026-03-29T22:00:00Z"), BERLIN))
            .isEqualTo(Instant.parse("2026-03-29T22:00:00Z"));
    }

    @Test
    void aYearStartsAtTheZonesNewYear() {
        Instant newYearsEveInUtc = Instant.parse("2026-12-31T23:30:00Z"); // 00:30 on 2027-01-01 in Berlin
        assertThat(CalendarWindow.YEAR.start(newYearsEveInUtc, BERLIN)).isEqualTo(Instant.parse("2026-12-31T23:00:00Z"));
        assertThat(CalendarWindow.YEAR.end(newYearsEveInUtc, BERLIN)).isEqualTo(Instant.parse("2027-12-31T23:00:00Z"));
        assertThat(CalendarWindow.YEAR.start(newYearsEveInUtc, ZoneOffset.UTC))
            .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(length(CalendarWindow.YEAR, Instant.parse("2028-06-01T00:00:00Z"), BERLIN))
            .as("a leap year").isEqualTo(Duration.ofDays(366));
    }

    @Test
    void aDayWithoutMidnightStartsAtItsFirstInstant() {
        // Sao Paulo went from 00:00 to 01:00 on 2018-11-04
        ZoneId saoPaulo = ZoneId.of("America/Sao_Paulo");
        Instant start = CalendarWindow.DAY.start(Instant.parse("2018-11-04T15:00:00Z"), saoPaulo);
        assertThat(start).isEqualTo(Instant.parse("2018-11-04T03:00:00Z"));
        assertThat(length(CalendarWindow.DAY, start, saoPaulo)).isEqualTo(Duration.ofHours(23));
    }

    @Test
    void aCalendarLimitIsAFixedWindowOfItsCalendarsEstimatedLength() {
        Limit monthly = Limit.of(10_000, CalendarWindow.MONTH, BERLIN);
        assertThat(monthly.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
        assertThat(monthly.window()).isEqualTo(CalendarWindow.MONTH.estimatedLength());
        assertThat(monthly.withAlertAt(9_000).withMode(Limit.Mode.SHADOW).calendar()).isEqualTo(CalendarWindow.MONTH);
        assertThat(monthly.withZone(ZoneOffset.UTC).zone()).isEqualTo(ZoneOffset.UTC);
        assertThat(new Limit(Algorithm.FIXED_WINDOW, 5, null, 0, null, Limit.Mode.ENFORCE, CalendarWindow.DAY, null)
            .zone()).as("UTC by default").isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void aCalendarLimitRefusesAnotherAlgorithmAWindowAndAZoneWithoutCalendar() {
        Limit monthly = Limit.of(10, CalendarWindow.MONTH, BERLIN);
        assertThatIllegalArgumentException().isThrownBy(() -> monthly.withAlgorithm(Algorithm.TOKEN_BUCKET))
            .withMessage("algorithm TOKEN_BUCKET cannot count calendar MONTH: a calendar limit is a fixed window by "
                    + "nature");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new Limit(Algorithm.FIXED_WINDOW, 5, Duration.ofDays(30), 0, null, Limit.Mode.ENFORCE,
                    CalendarWindow.MONTH, BERLIN))
            .withMessage("window PT720H and calendar MONTH exclude each other: a calendar limit counts calendar "
                    + "periods");
        assertThatIllegalArgumentException().isThrownBy(() -> Limit.of(5, Duration.ofMinutes(1)).withZone(BERLIN))
            .withMessage("zone Europe/Berlin needs a calendar: only calendar periods have one");
    }

    private static Duration length(CalendarWindow calendar, Instant instant, ZoneId zone) {
        return Duration.between(calendar.start(instant, zone), calendar.end(instant, zone));
    }

}
