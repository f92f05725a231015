package io.github.limiter.aop;

import java.lang.reflect.Method;
import java.util.List;

import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.key.CostExpression;
import io.github.limiter.key.KeyExpression;
import org.jspecify.annotations.Nullable;

/**
 * One limit of a method, resolved and validated once from its annotation and policy.
 *
 * @param limitId the limit id
 * @param key the parsed key expression
 * @param cost the parsed cost
 * @param limit what the limit allows
 * @param method the limited method, for descriptions
 * @param onFailure what calls do when Redis cannot decide, or {@code null} for the limiter's default
 * @param choice the policy chosen per call, or {@code null} when the limit is fixed
 */
record LimitSpec(String limitId, KeyExpression key, CostExpression cost, Limit limit, String method,
        @Nullable OnFailure onFailure, @Nullable PolicyChoice choice) {

    LimitSpec(String limitId, KeyExpression key, CostExpression cost, Limit limit, String method,
            @Nullable OnFailure onFailure) {
        this(limitId, key, cost, limit, method, onFailure, null);
    }

    /** This limit standing for a policy chosen per call, among the limits of {@code choice}. */
    LimitSpec choosing(PolicyChoice choice) {
        return new LimitSpec(this.limitId, this.key, this.cost, this.limit, this.method, this.onFailure, choice);
    }

    /** The limit a call is counted under: this one, or the one of the policy the call chooses. */
    LimitSpec forCall(Method called, @Nullable Object[] args) {
        return (this.choice != null) ? this.choice.select(this.method, called, args) : this;
    }

    /** The limits as declared: one, or one per policy a call can choose. */
    List<LimitDescription> describe() {
        if (this.choice != null) {
            return this.choice.byPolicy().values().stream().flatMap((spec) -> spec.describe().stream()).toList();
        }
        return List.of(new LimitDescription(this.limitId, this.method, this.key.text(), this.limit));
    }

}
