package io.github.limiter;

/**
 * How a limit counts calls. Every algorithm decides in one atomic Lua script on Redis time, and
 * supports the same alert and ban tiers.
 *
 * @since 0.1.0
 */
public enum Algorithm {

    /**
     * A counter per key whose window starts with the first call and lasts the window. Cheapest
     * (one small key); admits up to {@code 2 x max} calls across the edge of two windows.
     */
    FIXED_WINDOW,

    /**
     * A log of call times per key: never more than {@code max} calls in any window of the given
     * length. Memory grows with {@code max} (one sorted-set member per call in the window), so it
     * suits low limits such as anti-crawler tiers.
     */
    SLIDING_LOG,

    /**
     * This window's count plus the previous window's, weighted by how much of it still overlaps
     * the last window. Constant memory per key; an approximation: at most {@code 2 x max} in any
     * window in the worst case, about {@code max} when traffic is spread evenly.
     */
    SLIDING_WINDOW,

    /**
     * A bucket of {@code max} tokens refilled at {@code max} per window: bursts up to {@code max},
     * then a smooth rate. Constant memory per key; for API quotas.
     */
    TOKEN_BUCKET

}
