package io.github.limiter.observation;

import java.util.List;
import java.util.Objects;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What one decision's observation knows: the limits the call must pass, with their keys, and, once
 * decided, the binding decision; a failure to decide is the context's
 * {@linkplain #getError() error}. For conventions and handlers of the application's own.
 *
 * @since 0.1.0
 */
public class DecisionObservationContext extends Observation.Context {

    private final List<LimitRequest> requests;

    private volatile @Nullable Decision decision;

    /**
     * Creates the context of one decision.
     * @param requests the limits the call must pass, not empty
     */
    public DecisionObservationContext(List<LimitRequest> requests) {
        Objects.requireNonNull(requests, "requests must not be null");
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("A decision is about at least one limit");
        }
        this.requests = List.copyOf(requests);
    }

    /**
     * Returns the limits the call must pass, in order, each with its key. Keys identify callers:
     * they are not key values of the default convention.
     * @return the requests
     */
    public List<LimitRequest> getRequests() {
        return this.requests;
    }

    /**
     * Returns the binding decision: the one that refused the call, or the one with the fewest calls
     * left.
     * @return the decision, or {@code null} until decided, and if the limiter could not decide
     */
    public @Nullable Decision getDecision() {
        return this.decision;
    }

    /**
     * Sets the binding decision, when it is made.
     * @param decision the decision
     */
    public void setDecision(Decision decision) {
        this.decision = Objects.requireNonNull(decision, "decision must not be null");
    }

}
