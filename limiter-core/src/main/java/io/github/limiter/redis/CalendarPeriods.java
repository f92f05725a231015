package io.github.limiter.redis;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;

/**
 * The calendar periods a calendar limit's call is sent with: the ends of the period before the one
 * the application's clock is in, of that period, and of the one after. The script counts the call
 * in the first of them that Redis's clock has not passed, so that Redis's clock decides, and a
 * skew between the two clocks shorter than a period changes nothing.
 */
final class CalendarPeriods {

    private CalendarPeriods() {
    }

    /**
     * The three ends, in milliseconds since 1970, of a calendar limit's periods around {@code now}.
     * @param limit a limit with a calendar
     * @param now the application's clock
     * @return the previous period's end (the current one's start), the current one's, the next one's
     */
    static long[] ends(Limit limit, Instant now) {
        CalendarWindow calendar = limit.calendar();
        if (calendar == null) {
            throw new IllegalArgumentException("Limit " + limit + " has no calendar");
        }
        ZoneId zone = (limit.zone() != null) ? limit.zone() : ZoneOffset.UTC;
        Instant start = calendar.start(now, zone);
        Instant end = calendar.end(now, zone);
        return new long[] { start.toEpochMilli(), end.toEpochMilli(), calendar.end(end, zone).toEpochMilli() };
    }

}
