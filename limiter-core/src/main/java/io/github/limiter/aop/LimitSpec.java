package io.github.limiter.aop;

import java.time.Duration;

import io.github.limiter.key.KeyExpression;

/**
 * A method's limit, resolved and validated once from its annotation.
 *
 * @param limitId the limit id
 * @param key the parsed key expression
 * @param max the calls allowed per window
 * @param window the window's length
 */
record LimitSpec(String limitId, KeyExpression key, long max, Duration window) {

}
