package io.github.limiter.interceptor;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import reactor.util.context.ContextView;

/**
 * Makes the observation a reactive subscriber carries in its Reactor context current while its
 * decision starts, so that the decision's observation is its child: Spring WebFlux keeps the
 * request's observation there, not on a thread. Only loaded when Reactor is on the classpath.
 */
final class ObservationParents {

    // ObservationThreadLocalAccessor.KEY, whose class needs context-propagation, which Reactor does not bring
    static final String KEY = "micrometer.observation";

    private ObservationParents() {
    }

    static <T> T within(ContextView context, Supplier<T> action) {
        if (!(context.getOrDefault(KEY, null) instanceof Observation parent) || parent.isNoop()) {
            return action.get();
        }
        try (Observation.Scope scope = parent.openScope()) {
            return action.get();
        }
    }

}
