package io.github.limiter;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;

/**
 * A calendar period that a quota counts in: {@code @RateLimit(max = 10_000, calendar =
 * CalendarWindow.MONTH, zone = "Europe/Berlin")} allows 10,000 calls per calendar month in Berlin.
 * A period starts at midnight (or the zone's first instant of that day) of its first day in the
 * zone, and lasts until the next one starts: across a daylight-saving change, a day is 23 or 25
 * hours long, and so is a month, a week or a year one hour shorter or longer.
 *
 * <p>A calendar limit is a fixed window whose windows are these periods; Redis's clock decides
 * which period a call falls in.
 *
 * @since 0.1.0
 */
public enum CalendarWindow {

    /** A calendar day. */
    DAY(ChronoUnit.DAYS),

    /** An ISO week, from Monday to Sunday. */
    WEEK(ChronoUnit.WEEKS),

    /** A calendar month. */
    MONTH(ChronoUnit.MONTHS),

    /** A calendar year. */
    YEAR(ChronoUnit.YEARS);

    private final ChronoUnit unit;

    CalendarWindow(ChronoUnit unit) {
        this.unit = unit;
    }

    /**
     * Returns the start of the period that contains an instant, in a zone.
     * @param instant the instant
     * @param zone the zone whose calendar counts
     * @return the first instant of the period
     */
    public Instant start(Instant instant, ZoneId zone) {
        return firstDay(LocalDate.ofInstant(instant, zone)).atStartOfDay(zone).toInstant();
    }

    /**
     * Returns the end of the period that contains an instant, in a zone: the first instant of the
     * next period.
     * @param instant the instant
     * @param zone the zone whose calendar counts
     * @return the first instant after the period
     */
    public Instant end(Instant instant, ZoneId zone) {
        return firstDay(LocalDate.ofInstant(instant, zone)).plus(1, this.unit).atStartOfDay(zone).toInstant();
    }

    /**
     * Returns the length a period is reckoned at where one length must stand for all: the
     * {@link Limit#window()} of a calendar limit, which headers and descriptions show. Periods
     * themselves follow the calendar: this is {@link ChronoUnit}'s estimate (a month is 30.436875
     * days, a year 365.2425).
     * @return the estimated length
     */
    public Duration estimatedLength() {
        return this.unit.getDuration();
    }

    private LocalDate firstDay(LocalDate date) {
        return switch (this) {
            case DAY -> date;
            case WEEK -> date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> date.withDayOfMonth(1);
            case YEAR -> date.withDayOfYear(1);
        };
    }

}
