package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;

/**
 * The rate-limit header fields of a response: the IETF httpapi {@code RateLimit-Policy} and
 * {@code RateLimit} (one entry per enforced limit of the call), and the widespread
 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} (for the
 * binding limit; the reset in seconds from now).
 */
final class RateLimitHeaders {

    private RateLimitHeaders() {
    }

    static Map<String, String> of(Headers which, List<LimitRequest> requests, List<Decision> decisions,
            Decision binding) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (which == Headers.IETF || which == Headers.BOTH) {
            StringBuilder policy = new StringBuilder();
            StringBuilder state = new StringBuilder();
            for (int i = 0; i < decisions.size(); i++) {
                Decision decision = decisions.get(i);
                if (decision.shadow()) {
                    continue;
                }
                String name = name(decision.limitId());
                append(policy, name + ";q=" + decision.limit() + ";w=" + seconds(requests.get(i).limit().window()));
                append(state, name + ";r=" + decision.remaining() + ";t=" + seconds(resetOrRetry(decision)));
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

    /** A rejected caller learns when it may call again; an allowed one when its window resets. */
    private static Duration resetOrRetry(Decision decision) {
        return decision.allowed() ? decision.resetAfter() : decision.retryAfter();
    }

    private static void append(StringBuilder field, String item) {
        field.append(field.isEmpty() ? "" : ", ").append(item);
    }

    /** A structured-field string; limit ids cannot hold whitespace, but may hold quotes. */
    private static String name(String limitId) {
        return limitId.chars()
            .mapToObj(c -> (c == '"' || c == '\\' || c < 0x20 || c > 0x7e) ? "_" : String.valueOf((char) c))
            .collect(Collectors.joining("", "\"", "\""));
    }

    /** Whole seconds, rounded up. */
    static long seconds(Duration duration) {
        long millis = duration.toMillis();
        return (millis + 999) / 1000;
    }

}
