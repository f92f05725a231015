package io.github.limiter.autoconfigure.web;

import java.net.URI;

/**
 * The {@code type} URIs of the RFC 9457 problem details that answer a refused call, one per kind
 * of refusal (and one for a call whose rate-limit key is blank, one for a limit whose expression failed). They do not change between releases, so a client can tell the kinds apart by
 * {@code type} rather than by status or title, and an application can use them in answers of its
 * own, such as a login refused during a ban.
 *
 * <p>These constants are under {@link #DEFAULT_BASE}. An application that sets
 * {@code limiter.web.problem-type-base} gets the same slugs under its own base instead.
 *
 * @since 0.1.0
 */
public final class RateLimitProblemTypes {

    /**
     * The base the types are under unless {@code limiter.web.problem-type-base} names another:
     * {@code https://limiter.github.io/problems/}.
     *
     * @since 0.1.0
     */
    public static final URI DEFAULT_BASE = URI.create("https://limiter.github.io/problems/");

    static final String RATE_LIMIT_EXCEEDED_SLUG = "rate-limit-exceeded";

    static final String BANNED_SLUG = "banned";

    static final String LIMITER_UNAVAILABLE_SLUG = "limiter-unavailable";

    static final String BLANK_KEY_SLUG = "blank-key";

    static final String EXPRESSION_FAILED_SLUG = "expression-failed";

    /**
     * The call would go past its limit in the current window; {@code Retry-After} says when the
     * limit has room again. Answered with 429.
     *
     * @since 0.1.0
     */
    public static final URI RATE_LIMIT_EXCEEDED = under(DEFAULT_BASE, RATE_LIMIT_EXCEEDED_SLUG);

    /**
     * The call's key is banned for having gone past a limit with a ban; {@code Retry-After} says
     * when the ban ends. Answered with {@code limiter.web.ban-status} (429 unless set).
     *
     * @since 0.1.0
     */
    public static final URI BANNED = under(DEFAULT_BASE, BANNED_SLUG);

    /**
     * The limiter could not decide (Redis unreachable, or slower than {@code limiter.redis.timeout})
     * and the limit denies calls on failure. Nothing about the caller is known to be wrong, so the
     * answer is 503, not 429.
     *
     * @since 0.1.0
     */
    public static final URI LIMITER_UNAVAILABLE = under(DEFAULT_BASE, LIMITER_UNAVAILABLE_SLUG);

    /**
     * The call's rate-limit key evaluated to nothing (such as {@code ?userId=} for
     * {@code key = "#userId"}) and {@code limiter.blank-key} is {@code reject}: the request lacks
     * what the limit counts by, so it is the client's to fix. Answered with 400; {@code limitId}
     * names the limit.
     *
     * @since 0.1.0
     */
    public static final URI BLANK_KEY = under(DEFAULT_BASE, BLANK_KEY_SLUG);

    /**
     * An expression of the call's limit (its key, cost, zone or policy choice) failed: a mistake in
     * the application's code, not the client's, so the answer is 500; {@code limitId} names the
     * limit, and the log says which expression failed and why.
     *
     * @since 0.1.0
     */
    public static final URI EXPRESSION_FAILED = under(DEFAULT_BASE, EXPRESSION_FAILED_SLUG);

    private RateLimitProblemTypes() {
    }

    /**
     * Appends rather than {@link URI#resolve(String) resolves}: resolving against an opaque base,
     * such as a {@code tag:} URI, would return the bare slug.
     */
    static URI under(URI base, String slug) {
        return URI.create(base + slug);
    }

}
