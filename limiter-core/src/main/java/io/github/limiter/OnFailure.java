package io.github.limiter;

/**
 * What an annotated call does when Redis cannot decide it: unreachable, or slower than the
 * limiter's timeout. Under several limits, a limit that denies wins, then one decided locally; a
 * limit that allows lets the call through uncounted under it.
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
    DENY,

    /**
     * The call is decided by this instance alone, in its own memory, under the same limit: the
     * same algorithm (the sliding ones approximated), alert, ban and shadow mode, with every limit
     * of the call passed or none counted; {@link Decision#local()} says so. A refusal is answered
     * as one of Redis's (HTTP 429). With {@code N} instances, up to {@code N x max} calls pass per
     * window while Redis cannot decide; once it decides again, the local counts are dropped and
     * Redis's hold. For limits that must keep holding through an outage, against an attacker and
     * for everyone else, such as a public API's quota.
     * @since 0.1.0
     */
    LOCAL

}
