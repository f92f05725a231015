package io.github.limiter.autoconfigure;

import java.time.Duration;

/**
 * Changes of a policy's {@code max}, {@code window}, {@code alert-at} and {@code ban-for} made
 * while the application runs (through the {@code ratelimits} endpoint or a configuration
 * refresh): kept in Redis and read by every instance.
 *
 * @since 0.1.0
 */
public class LimiterPolicyOverridesProperties {

    /**
     * Whether policies can be changed while the application runs, and every instance reads
     * the changes from Redis.
     */
    private boolean enabled = true;

    /**
     * How often each instance reads the overrides from Redis: the longest an instance takes to
     * apply a change made on another when it did not hear the change announced.
     */
    private Duration pollInterval = Duration.ofSeconds(1);

    /**
     * How long the overrides stay in Redis after their latest change while no instance runs;
     * running instances renew it.
     */
    private Duration retention = Duration.ofDays(30);

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getPollInterval() {
        return this.pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    public Duration getRetention() {
        return this.retention;
    }

    public void setRetention(Duration retention) {
        this.retention = retention;
    }

}
