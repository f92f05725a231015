package io.github.limiter.aop;

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
 */
record LimitSpec(String limitId, KeyExpression key, CostExpression cost, Limit limit, String method,
        @Nullable OnFailure onFailure) {

    LimitDescription describe() {
        return new LimitDescription(this.limitId, this.method, this.key.text(), this.limit);
    }

}
