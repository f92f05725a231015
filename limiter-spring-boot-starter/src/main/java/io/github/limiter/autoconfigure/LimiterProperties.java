package io.github.limiter.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for limiter, under {@code limiter.*}.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("limiter")
public class LimiterProperties {

    /**
     * Whether to enable rate limiting. When false, @RateLimit methods run unlimited and no
     * RateLimiter bean is created.
     */
    private boolean enabled = true;

    /**
     * Prefix of every Redis key the limiter writes. Keys look like
     * '<prefix>{<limit-id>:<key>}'. Must not contain '{' or '}', which would break the hash tag
     * that keeps a decision's keys in one Redis Cluster slot.
     */
    private String keyPrefix = "limiter:";

    /**
     * Returns whether rate limiting is enabled.
     * @return {@code true} unless switched off
     */
    public boolean isEnabled() {
        return this.enabled;
    }

    /**
     * Sets whether rate limiting is enabled.
     * @param enabled {@code false} to switch it off
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Returns the prefix of every Redis key the limiter writes.
     * @return the key prefix
     */
    public String getKeyPrefix() {
        return this.keyPrefix;
    }

    /**
     * Sets the prefix of every Redis key the limiter writes.
     * @param keyPrefix the key prefix, such as {@code "limiter:"}
     * @throws IllegalArgumentException if it contains {@code '{'} or {@code '}'}
     */
    public void setKeyPrefix(String keyPrefix) {
        if (keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("limiter.key-prefix '" + keyPrefix
                    + "' must not contain '{' or '}': they would break the hash tag of every key");
        }
        this.keyPrefix = keyPrefix;
    }

}
