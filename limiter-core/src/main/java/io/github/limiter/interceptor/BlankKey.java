package io.github.limiter.interceptor;

/**
 * What a call does when its key expression evaluates to {@code null} or a blank string, such as a
 * user id missing from the request.
 *
 * @since 0.1.0
 */
public enum BlankKey {

    /**
     * The call is refused with a {@link io.github.limiter.BlankRateLimitKeyException} that names
     * the limit, the expression and the method: a missing identity is not merged into one counter
     * shared by everyone. The starter answers it with HTTP 400 in web applications. The default.
     */
    REJECT,

    /** The limit is skipped for this call; other limits of the method still apply. */
    SKIP

}
