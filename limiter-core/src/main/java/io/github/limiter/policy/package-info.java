/**
 * Named policies and their live overrides: a {@link io.github.limiter.policy.LimitPolicy} that
 * limits take their unset values from, and the {@link io.github.limiter.policy.PolicyOverrides}
 * that change a policy's values while the application runs, checked against every limit that uses
 * it, with a {@link io.github.limiter.policy.RateLimitPolicyChangedEvent} for each change.
 */
@NullMarked
package io.github.limiter.policy;

import org.jspecify.annotations.NullMarked;
