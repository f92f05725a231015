package io.github.limiter;

import java.util.Objects;

/**
 * One limit a call must pass, with the permits the call takes from it.
 *
 * @param limitId the limit's id: not blank, without {@code '{'}, {@code '}'}, {@code ':'} or
 * whitespace
 * @param key the key the limit applies to, such as a user id; the empty string for one key shared
 * by every caller
 * @param limit what the limit allows
 * @param cost the permits the call takes, from 0 to {@code limit.max()}
 * @since 0.1.0
 */
public record LimitRequest(String limitId, String key, Limit limit, long cost) {

    /**
     * Validates the components.
     * @param limitId the limit's id
     * @param key the key
     * @param limit what the limit allows
     * @param cost the permits the call takes
     * @throws IllegalArgumentException if the cost is negative or more than the limit's max: such
     * a call could never pass
     */
    public LimitRequest {
        Objects.requireNonNull(limitId, "limitId must not be null");
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(limit, "limit must not be null");
        if (cost < 0) {
            throw new IllegalArgumentException("cost " + cost + " of a call under '" + limitId + "' is negative");
        }
        if (cost > limit.max()) {
            throw new IllegalArgumentException("cost " + cost + " of a call under '" + limitId
                    + "' is more than its max of " + limit.max() + " per window: the call could never pass");
        }
    }

    /**
     * Returns a request for one permit.
     * @param limitId the limit's id
     * @param key the key
     * @param limit what the limit allows
     * @return the request
     */
    public static LimitRequest of(String limitId, String key, Limit limit) {
        return new LimitRequest(limitId, key, limit, 1);
    }

}
