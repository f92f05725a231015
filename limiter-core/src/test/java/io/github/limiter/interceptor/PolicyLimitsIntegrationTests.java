package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.LimitDescription;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.policy.RateLimitPolicyChangedEvent;
import io.github.limiter.test.Closer;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A policy with several limits ({@code limiter.policies.api.limits}) on real Redis: its limits are
 * decided together, all or nothing, in one script call; each has its own tiers, its own override and
 * its own line in the listing; a policy chosen per call may have several; and what cannot work
 * fails the start.
 */
@WithRedis
class PolicyLimitsIntegrationTests {

    // "2 a minute, alert past 1; and 3 an hour": the second limit takes the policy's algorithm
    private static final LimitPolicy API = new LimitPolicy(Algorithm.FIXED_WINDOW, null, null, null, null)
        .withLimits(List.of(new LimitPolicy(null, Duration.ofMinutes(1), 2L, 1L, null),
                new LimitPolicy(null, Duration.ofHours(1), 3L, null, null)));

    private static final LimitPolicy FREE = new LimitPolicy(null, Duration.ofHours(1), 1L, null, null);

    @AutoClose
    private final Closer closing = new Closer();

    private AdvisedBeans beans;

    @Test
    void thePolicysLimitsAreDecidedTogetherAllOrNothingInOneScriptCall() {
        Api api = start(Api.class).bean(Api.class);
        api.call("ann");
        api.call("ann");
        assertThat(this.beans.decided()).containsOnly(List.of("Api.call.0", "Api.call.1")).hasSize(2);
        // the first limit's tier is its own: its alert, past 1, on the second call
        assertThat(this.beans.decisions()).filteredOn(Decision::alertRaised).extracting(Decision::limitId).containsExactly("Api.call.0");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> api.call("ann"))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("Api.call.0"));
        // refused by the first, the call counted under neither
        Limit hourly = this.beans.advisor().limits().stream()
            .filter((limit) -> limit.limitId().equals("Api.call.1")).findFirst().orElseThrow().limit();
        assertThat(this.beans.limiter().state("Api.call.1", "ann", hourly).count()).isEqualTo(2);
    }

    @Test
    void eachLimitIsListedAndOverriddenOnItsOwn() {
        Api api = start(Api.class).bean(Api.class);
        RateLimitAdvisor advisor = this.beans.advisor();
        api.call("bob");
        assertThat(advisor.limits()).extracting(LimitDescription::limitId, (limit) -> limit.limit().max(),
                (limit) -> limit.limit().window())
            .containsExactly(org.assertj.core.groups.Tuple.tuple("Api.call.0", 2L, Duration.ofMinutes(1)),
                    org.assertj.core.groups.Tuple.tuple("Api.call.1", 3L, Duration.ofHours(1)));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> advisor.overrides().check("api", new PolicyOverride(10L, null, null, null)))
            .withMessage("Policy 'api' has several limits; override each of them by its own name: "
                    + "'api.0' (max 2 per PT1M), 'api.1' (max 3 per PT1H)");
        assertThat(advisor.overrides().addressable()).containsOnlyKeys("api.0", "api.1", "free");
        advisor.overrides().update(Map.of("api.0", new PolicyOverride(10L, null, null, null)),
                RateLimitPolicyChangedEvent.Origin.THIS_INSTANCE, null);
        assertThat(advisor.overrides().limitsOf("api.0")).singleElement()
            .satisfies((limit) -> assertThat(limit.limit().max()).isEqualTo(10));
        // the first limit now allows 10 a minute: the hourly one, untouched, refuses the fourth call
        api.call("bob");
        api.call("bob");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> api.call("bob"))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("Api.call.1"));
    }

    @Test
    void aPolicyChosenPerCallCountsUnderEachOfItsLimits() {
        Plans plans = start(Plans.class).bean(Plans.class);
        plans.call("carl", "api");
        plans.call("dora", "free");
        assertThat(this.beans.decided()).containsExactly(List.of("Plans.call.api.0", "Plans.call.api.1"),
                List.of("Plans.call.free"));
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> plans.call("dora", "free"))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("Plans.call.free"));
    }

    @Test
    void aLimitWrittenBesideAPolicyWithSeveralFailsTheStart() {
        assertThatThrownBy(() -> start(Overwritten.class)).rootCause()
            .isInstanceOf(InvalidRateLimitException.class)
            .hasMessageEndingWith("policy = 'api' has several limits (limiter.policies.api.limits), so max cannot "
                    + "be written beside it: set it on each of them there");
    }

    @Test
    void aProblemOfOneLimitNamesItsProperty() {
        LimitPolicy tooManyAlerts = new LimitPolicy(null, null, null, null, null)
            .withLimits(List.of(new LimitPolicy(null, Duration.ofMinutes(1), 2L, 5L, null)));
        assertThatThrownBy(() -> start(Api.class, Map.of("api", tooManyAlerts))).rootCause()
            .isInstanceOf(InvalidRateLimitException.class)
            .hasMessageContaining("alertAt = '5'")
            .hasMessageContaining("(from limiter.policies.api.limits[0].alert-at)");
    }

    private AdvisedBeans start(Class<?> bean) {
        return start(bean, Map.of("api", API, "free", FREE));
    }

    private AdvisedBeans start(Class<?> bean, Map<String, LimitPolicy> policies) {
        this.beans = this.closing.add(new AdvisedBeans("policy-limits-" + UUID.randomUUID() + ":",
                new RateLimitAdvisor.Settings(policies, BlankKey.REJECT, OnFailure.ALLOW), bean));
        return this.beans;
    }

    public static class Api {

        @RateLimit(policy = "api", key = "#user")
        public String call(String user) {
            return user;
        }

    }

    public static class Plans {

        @RateLimit(policy = "#{#plan}", key = "#user")
        public String call(String user, String plan) {
            return user;
        }

    }

    public static class Overwritten {

        @RateLimit(policy = "api", key = "#user", max = 5)
        public String call(String user) {
            return user;
        }

    }

}
