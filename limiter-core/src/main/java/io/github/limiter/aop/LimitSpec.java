package io.github.limiter.aop;

import io.github.limiter.Limit;
import io.github.limiter.key.KeyExpression;

/**
 * A method's limit, resolved and validated once from its annotation and policy.
 *
 * @param limitId the limit id
 * @param key the parsed key expression
 * @param limit what the limit allows
 */
record LimitSpec(String limitId, KeyExpression key, Limit limit) {

}
