package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;

/**
 * Which of a call's decisions, one per limit, binds it; and what a limit's decision becomes when
 * another limit refused the call.
 */
final class BindingDecisions {

    private BindingDecisions() {
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
