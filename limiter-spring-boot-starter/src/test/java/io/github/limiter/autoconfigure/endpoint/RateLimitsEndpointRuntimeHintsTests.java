package io.github.limiter.autoconfigure.endpoint;

import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint.KeyState;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint.LimitEntry;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint.OverrideEntry;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint.PolicyChange;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint.PolicyEntry;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint.Report;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The records the ratelimits endpoint returns need no hints of the starter's own: Spring Boot's
 * operation annotations are {@code @Reflective}, and register what an operation returns for JSON
 * binding, records and their components included.
 */
class RateLimitsEndpointRuntimeHintsTests {

    private static final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

    private final RuntimeHints hints = new RuntimeHints();

    @Test
    void springBootRegistersTheRecordsTheOperationsReturnForBinding() {
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(this.hints, RateLimitsEndpoint.class);
        assertThat(reflection.onMethodInvocation(RateLimitsEndpoint.class, "limits")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(Report.class, "limits")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(LimitEntry.class, "limitId")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(PolicyEntry.class, "window")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(RecentEvent.class, "limitId")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(KeyState.class, "bannedUntil")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(PolicyEntry.class, "override")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(OverrideEntry.class, "max")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(PolicyChange.class, "override")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(PolicyChange.class, "limits")).accepts(this.hints);
    }

}
