package io.github.limiter.observation;

import java.util.Locale;

import io.github.limiter.Decision;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The observation {@code limiter.decision}, with two low-cardinality key values, the same as the
 * tags of the meter {@code limiter.decisions}:
 * <ul>
 * <li>{@code limit}: the id of the limit that bound the call (the one that refused it, or the one
 * with the fewest calls left); the call's first limit until then, and if the limiter could not
 * decide</li>
 * <li>{@code outcome}: {@code allowed}, {@code rejected}, {@code banned}, or {@code error} when the
 * limiter could not decide; {@code unknown} until decided</li>
 * </ul>
 * Never the key: it identifies a caller. Extend this class to add key values of your own.
 *
 * @since 0.1.0
 */
public class DefaultDecisionObservationConvention implements DecisionObservationConvention {

    /** The observation's name. */
    public static final String NAME = "limiter.decision";

    /**
     * Creates the convention, for the starter or for a subclass of yours.
     */
    public DefaultDecisionObservationConvention() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(DecisionObservationContext context) {
        return "rate limit " + limitId(context);
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(DecisionObservationContext context) {
        return KeyValues.of(KeyValue.of("limit", limitId(context)), KeyValue.of("outcome", outcome(context)));
    }

    private static String limitId(DecisionObservationContext context) {
        Decision decision = context.getDecision();
        return (decision != null) ? decision.limitId() : context.getRequests().get(0).limitId();
    }

    private static String outcome(DecisionObservationContext context) {
        Decision decision = context.getDecision();
        if (decision != null) {
            return decision.outcome().name().toLowerCase(Locale.ROOT);
        }
        return (context.getError() != null) ? "error" : "unknown";
    }

}
