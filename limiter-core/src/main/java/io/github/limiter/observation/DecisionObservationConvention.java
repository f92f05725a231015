package io.github.limiter.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names a decision's observation and gives its key values. The starter uses a bean of this type,
 * if the application has one, instead of {@link DefaultDecisionObservationConvention}.
 *
 * @since 0.1.0
 */
public interface DecisionObservationConvention extends ObservationConvention<DecisionObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof DecisionObservationContext;
    }

}
