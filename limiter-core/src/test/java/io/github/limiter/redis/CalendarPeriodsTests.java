package io.github.limiter.redis;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CalendarPeriodsTests {

    @Test
    void aCallCarriesTheEndsOfThePreviousTheCurrentAndTheNextPeriod() {
        Limit daily = Limit.of(5, CalendarWindow.DAY, ZoneId.of("Europe/Berlin"));
        // the 23-hour day of 2026-03-29 in Berlin, then a day of 24
        long[] ends = CalendarPeriods.ends(daily, Instant.parse("2026-03-29T12:00:00Z"));
        assertThat(ends).containsExactly(Instant.parse("2026-03-28T23:00:00Z").toEpochMilli(),
                Instant.parse("2026-03-29T22:00:00Z").toEpochMilli(), Instant.parse("2026-03-30T22:00:00Z").toEpochMilli());
        assertThat(ends[1] - ends[0]).isEqualTo(Duration.ofHours(23).toMillis());
    }

    @Test
    void aLimitWithoutCalendarHasNoPeriods() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> CalendarPeriods.ends(Limit.of(5, Duration.ofMinutes(1)), Instant.EPOCH));
    }

}
