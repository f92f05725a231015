package io.github.limiter;

/**
 * What an annotated call does when Redis cannot decide it: unreachable, or slower than the
 * limiter's timeout.
 *
 * @since 0.1.0
 */
public enum OnFailure {

    /**
     * The call proceeds, uncounted: an outage of the limiter's Redis does not take the site down.
     * The default.
     */
    ALLOW,

    /**
     * The call is refused ({@link RateLimitExceededException#isFailure()}; HTTP 503): for limits
     * that guard against abuse even at the cost of availability, such as login attempts.
     */
    DENY

}
