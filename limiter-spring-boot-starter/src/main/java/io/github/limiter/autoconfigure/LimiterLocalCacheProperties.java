package io.github.limiter.autoconfigure;

import java.time.Duration;

/**
 * Keys banned, or over their limit with a known retry instant, are refused on this instance
 * from memory until that instant, without a Redis round trip. Unbans and resets clear them on
 * every instance through a Redis pub/sub message.
 *
 * @since 0.1.0
 */
public class LimiterLocalCacheProperties {

    /**
     * Whether to refuse known-refused keys from memory.
     */
    private boolean enabled = true;

    /**
     * Most keys remembered at once per instance.
     */
    private int maxEntries = 10_000;

    /**
     * Longest a key is refused from memory before Redis is asked again, in case an unban
     * message is lost.
     */
    private Duration maxTime = Duration.ofMinutes(1);

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getMaxEntries() {
        return this.maxEntries;
    }

    public void setMaxEntries(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    public Duration getMaxTime() {
        return this.maxTime;
    }

    public void setMaxTime(Duration maxTime) {
        this.maxTime = maxTime;
    }

}
