package io.github.limiter.redis;

import java.time.Duration;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;

/**
 * What a limit's decision becomes when another limit refused the call, and whether a decision
 * refuses it; which decision binds is {@link Decision#binding(java.util.List)}.
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

}
