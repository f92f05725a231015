package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;

/**
 * Turns the decision script's reply into {@link Decision}s, and picks the one that binds a call.
 */
final class Replies {

    private Replies() {
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
        if (reply.get(at + 4) == 1L) {
            decision = decision.withAlertRaised();
        }
        if (reply.get(at + 5) == 1L) {
            decision = decision.withBanStarted();
        }
        return (request.limit().mode() == Limit.Mode.SHADOW) ? decision.inShadow() : decision;
    }

    /** A limit that would have allowed a call some other limit refused: nothing was counted. */
    static Decision notCounted(Decision decision) {
        if (decision.outcome() != Outcome.ALLOWED) {
            return decision;
        }
        Decision rejected = Decision.reject(decision.limitId(), decision.key(), decision.limit(), decision.count(),
                Duration.ZERO, decision.resetAfter());
        return decision.shadow() ? rejected.inShadow() : rejected;
    }

    /** Whether an enforced limit refuses the call. */
    static boolean refuses(Decision decision) {
        return !decision.shadow() && decision.outcome() != Outcome.ALLOWED;
    }

    /**
     * The decision that binds: enforced limits over shadow ones; then a rejection over an
     * allowance; then the longest wait, or the fewest calls remaining.
     */
    static Decision binding(List<Decision> decisions) {
        Decision binding = decisions.get(0);
        for (int i = 1; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            binding = binds(decision, binding) ? decision : binding;
        }
        return binding;
    }

    private static boolean binds(Decision candidate, Decision current) {
        if (candidate.shadow() != current.shadow()) {
            return !candidate.shadow();
        }
        boolean candidateAllowed = candidate.outcome() == Outcome.ALLOWED;
        if (candidateAllowed != (current.outcome() == Outcome.ALLOWED)) {
            return !candidateAllowed;
        }
        return candidateAllowed ? candidate.remaining() < current.remaining()
                : candidate.retryAfter().compareTo(current.retryAfter()) > 0;
    }

}
