package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.LimitState;
import org.jspecify.annotations.Nullable;

/**
 * The decision script's reply, read in one place, in the layout {@link DecisionScript} declares:
 * checked, the fast path's packed values unpacked, and turned into what each mode answers.
 */
final class DecisionReply {

    private DecisionReply() {
    }

    /**
     * Checks that a reply is the integers the script returns, as many as its call expects, and
     * unpacks the fast path's three into the acquire mode's six: the count, the reset, and
     * retry * 16 + outcome + alert * 4 + ban started * 8.
     * @throws IllegalStateException if it is not
     */
    static List<Long> numbers(@Nullable List<?> reply, int size, boolean fast) {
        if (reply == null || reply.size() != size) {
            throw new IllegalStateException("Unexpected reply from the limiter script: " + reply);
        }
        for (Object value : reply) {
            if (!(value instanceof Long)) {
                throw new IllegalStateException("Unexpected reply from the limiter script: " + reply);
            }
        }
        @SuppressWarnings("unchecked")
        List<Long> numbers = (List<Long>) reply;
        if (!fast) {
            return numbers;
        }
        long packed = numbers.get(2);
        return List.of(packed & 3, numbers.get(0), numbers.get(1), packed >>> 4, (packed >>> 2) & 1,
                (packed >>> 3) & 1);
    }

    /** The decisions of a reply in the acquire or check mode, one per request, in order. */
    static List<Decision> decisions(List<LimitRequest> requests, List<Long> reply) {
        List<Decision> decisions = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            decisions.add(decision(requests.get(i), reply, i * DecisionScript.REPLY_PER_LIMIT));
        }
        return decisions;
    }

    private static Decision decision(LimitRequest request, List<Long> reply, int at) {
        long max = request.limit().max();
        long count = reply.get(at + 1);
        Duration reset = Duration.ofMillis(reply.get(at + 2));
        Duration retry = Duration.ofMillis(reply.get(at + 3));
        Decision decision = switch (reply.get(at).intValue()) {
            case DecisionScript.ALLOWED -> Decision.allow(request.limitId(), request.key(), max, count, reset);
            case DecisionScript.BANNED -> Decision.ban(request.limitId(), request.key(), max, count, retry, reset);
            default -> Decision.reject(request.limitId(), request.key(), max, count, retry, reset);
        };
        if (request.limit().burst() > 0) {
            // a burst's bucket holds more than a window's max: what is left is what it holds
            decision = new Decision(decision.limitId(), decision.key(), decision.outcome(), max, count,
                    Math.max(request.limit().burst() - count, 0), decision.retryAfter(), decision.resetAfter(), false, false,
                    false, false);
        }
        if (reply.get(at + 4) == 1L) {
            decision = decision.withAlertRaised();
        }
        if (reply.get(at + 5) == 1L) {
            decision = decision.withBanStarted();
        }
        return (request.limit().mode() == Limit.Mode.SHADOW) ? decision.inShadow() : decision;
    }

    /** A key's state, from a reply in the peek mode: its count, reset and ban left. */
    static LimitState state(List<Long> reply) {
        return new LimitState(reply.get(0), Duration.ofMillis(reply.get(1)), Duration.ofMillis(reply.get(2)));
    }

    /** Whether a settlement changed a count, from a reply in the settle mode. */
    static boolean settled(List<Long> reply) {
        return reply.get(0) == 1;
    }

}
