package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;

/**
 * The rate-limit header fields of a response: the IETF httpapi {@code RateLimit-Policy} and
 * {@code RateLimit} (one entry per enforced limit of the call), and the widespread
 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} (for the
 * binding limit; the reset in seconds from now). A calendar limit's {@code w} is its current
 * period's length; its reset, as every limit's, is what Redis's clock left of the period.
 */
final class RateLimitHeaders {

    private RateLimitHeaders() {
    }

    static Map<String, String> of(Headers which, List<LimitRequest> requests, List<Decision> decisions,
            Decision binding) {
        Map<String, String> headers = new LinkedHashMap<>(8);
        if (which == Headers.IETF || which == Headers.BOTH) {
            // on every answer of a limited endpoint: built without a stream or a string per part
            StringBuilder policy = new StringBuilder(48);
            StringBuilder state = new StringBuilder(48);
            for (int i = 0; i < decisions.size(); i++) {
                Decision decision = decisions.get(i);
                if (decision.shadow()) {
                    continue;
                }
                if (!policy.isEmpty()) {
                    policy.append(", ");
                    state.append(", ");
                }
                appendName(policy, decision.limitId());
                policy.append(";q=").append(decision.limit()).append(";w=")
                    .append(seconds(window(requests.get(i).limit())));
                appendName(state, decision.limitId());
                state.append(";r=").append(decision.remaining()).append(";t=").append(seconds(resetOrRetry(decision)));
            }
            if (!policy.isEmpty()) {
                headers.put("RateLimit-Policy", policy.toString());
                headers.put("RateLimit", state.toString());
            }
        }
        if ((which == Headers.X_RATELIMIT || which == Headers.BOTH) && !binding.shadow()) {
            headers.put("X-RateLimit-Limit", Long.toString(binding.limit()));
            headers.put("X-RateLimit-Remaining", Long.toString(binding.remaining()));
            headers.put("X-RateLimit-Reset", Long.toString(seconds(resetOrRetry(binding))));
        }
        return headers;
    }

    /** A calendar limit's window is the length of its period now: a month of 28 to 31 days, a day of 23 to 25 hours. */
    private static Duration window(Limit limit) {
        CalendarWindow calendar = limit.calendar();
        if (calendar == null || limit.zone() == null) {
            return limit.window();
        }
        Instant now = Instant.now();
        return Duration.between(calendar.start(now, limit.zone()), calendar.end(now, limit.zone()));
    }

    /**
     * A rejected caller learns when it may call again; an allowed one when its window resets, and
     * so does a limit that would have allowed a call another limit refused (it has no wait of its
     * own: nothing was counted under it).
     */
    private static Duration resetOrRetry(Decision decision) {
        return (decision.allowed() || decision.retryAfter().isZero()) ? decision.resetAfter()
                : decision.retryAfter();
    }

    /** The limit id as a quoted string of the header's grammar: characters it cannot hold become {@code _}. */
    private static void appendName(StringBuilder field, String limitId) {
        field.append('"');
        for (int i = 0; i < limitId.length(); i++) {
            char c = limitId.charAt(i);
            field.append((c == '"' || c == '\\' || c < 0x20 || c > 0x7e) ? '_' : c);
        }
        field.append('"');
    }

    /** Whole seconds, rounded up. */
    static long seconds(Duration duration) {
        long millis = duration.toMillis();
        return (millis + 999) / 1000;
    }

}
