package io.github.limiter.redis;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.observation.DecisionObservationContext;
import io.github.limiter.observation.DecisionObservationConvention;
import io.github.limiter.observation.DefaultDecisionObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Makes each decision an observation, current while the decision is sent, so that the Redis
 * client's own observation of the script call (Lettuce's, where the application traces it) is its
 * child; stopped once the decision is made, before the caller hears of it. Nothing at all while the
 * registry is a no-op one.
 */
final class DecisionObservations {

    private static final DecisionObservationConvention DEFAULT = new DefaultDecisionObservationConvention();

    private volatile ObservationRegistry registry = ObservationRegistry.NOOP;

    private volatile @Nullable DecisionObservationConvention convention;

    void registry(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry must not be null");
    }

    ObservationRegistry registry() {
        return this.registry;
    }

    void convention(@Nullable DecisionObservationConvention convention) {
        this.convention = convention;
    }

    /**
     * Observes one decision.
     * @param decide starts the decision; its future fails with the failure unwrapped
     * @return the decision, completed after the observation stopped; failed as {@code decide}'s
     */
    CompletableFuture<Decision> observe(List<LimitRequest> requests, Supplier<CompletableFuture<Decision>> decide) {
        ObservationRegistry registry = this.registry;
        if (registry.isNoop()) {
            return decide.get();
        }
        DecisionObservationContext context = new DecisionObservationContext(requests);
        Observation observation = Observation.createNotStarted(this.convention, DEFAULT, () -> context, registry)
            .start();
        CompletableFuture<Decision> decided;
        try (Observation.Scope scope = observation.openScope()) {
            decided = decide.get();
        }
        catch (RuntimeException | Error ex) {
            observation.error(ex);
            observation.stop();
            throw ex;
        }
        // completed by hand, after the stop: a dependent of the caller's would run before this one's
        CompletableFuture<Decision> observed = new CompletableFuture<>();
        decided.whenComplete((decision, failure) -> {
            if (failure != null) {
                Throwable cause = DecisionEngine.unwrap(failure);
                observation.error(cause);
                observation.stop();
                observed.completeExceptionally(cause);
            }
            else {
                context.setDecision(decision);
                observation.stop();
                observed.complete(decision);
            }
        });
        return observed;
    }

}
