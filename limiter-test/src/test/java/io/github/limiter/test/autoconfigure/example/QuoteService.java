package io.github.limiter.test.autoconfigure.example;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.annotation.RateLimit;

import org.springframework.stereotype.Service;

/**
 * Quotes for users: three a minute each, an alert on the third, and a 15-minute ban for the user who
 * asks for a fourth; a daily allowance of exports, counted by a token bucket; and two reports a
 * calendar month.
 */
@Service
public class QuoteService {

    /** The limit id of {@link #quote}. */
    public static final String QUOTES = "quotes";

    /** The limit id of {@link #export}. */
    public static final String EXPORTS = "exports";

    /**
     * Returns a quote.
     * @param userId the user asking
     * @return the quote
     */
    @RateLimit(name = QUOTES, key = "#userId", window = "60s", max = 3, alertAt = 2, banFor = "15m")
    public String quote(String userId) {
        return "Premature optimization is the root of all evil.";
    }

    /** The limit id of {@link #ping}. */
    public static final String PINGS = "pings";

    /**
     * Answers a ping, at most five a second.
     * @param userId the user asking
     * @return the answer
     */
    @RateLimit(name = PINGS, key = "#userId", window = "1s", max = 5)
    public String ping(String userId) {
        return "pong";
    }

    /**
     * Exports the user's quotes.
     * @param userId the user asking
     * @return the export
     */
    @RateLimit(name = EXPORTS, key = "#userId", window = "1d", max = 5, algorithm = Algorithm.TOKEN_BUCKET)
    public String export(String userId) {
        return "quotes.csv";
    }

    /** The limit id of {@link #report}. */
    public static final String REPORTS = "reports";

    /**
     * Reports on the user's quotes, at most two a calendar month in Berlin.
     * @param userId the user asking
     * @return the report
     */
    @RateLimit(name = REPORTS, key = "#userId", max = 2, calendar = CalendarWindow.MONTH, zone = "Europe/Berlin")
    public String report(String userId) {
        return "report.pdf";
    }

}
