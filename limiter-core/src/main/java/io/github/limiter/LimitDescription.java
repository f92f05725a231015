package io.github.limiter;

/**
 * A limit as the application declared it, for admin tools such as the actuator endpoint.
 *
 * @param limitId the limit's id
 * @param method the limited method, as {@code SimpleClassName.method(ParameterTypes)}
 * @param key the key expression, empty for one key shared by every caller
 * @param limit what the limit allows
 * @since 0.1.0
 */
public record LimitDescription(String limitId, String method, String key, Limit limit) {

}
