package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.LimitDescription;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.policy.RateLimitPolicyChangedEvent;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

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

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    // "2 a minute, alert past 1; and 3 an hour": the second limit takes the policy's algorithm
    private static final LimitPolicy API = new LimitPolicy(Algorithm.FIXED_WINDOW, null, null, null, null)
        .withLimits(List.of(new LimitPolicy(null, Duration.ofMinutes(1), 2L, 1L, null),
                new LimitPolicy(null, Duration.ofHours(1), 3L, null, null)));

    private static final LimitPolicy FREE = new LimitPolicy(null, Duration.ofHours(1), 1L, null, null);

    // every decision the limiter made, one per script call: the limit ids it decided
    private static final List<List<String>> decided = new CopyOnWriteArrayList<>();

    private static final List<Decision> decisions = new CopyOnWriteArrayList<>();

    private AnnotationConfigApplicationContext context;

    private RedisRateLimiter limiter;

    @AfterEach
    void close() {
        if (this.context != null) {
            this.context.close();
        }
        if (this.limiter != null) {
            this.limiter.close();
        }
    }

    @Test
    void thePolicysLimitsAreDecidedTogetherAllOrNothingInOneScriptCall() {
        Api api = start(Api.class).getBean(Api.class);
        decided.clear();
        decisions.clear();
        api.call("ann");
        api.call("ann");
        assertThat(decided).containsOnly(List.of("Api.call.0", "Api.call.1")).hasSize(2);
        // the first limit's tier is its own: its alert, past 1, on the second call
        assertThat(decisions).filteredOn(Decision::alertRaised).extracting(Decision::limitId).containsExactly("Api.call.0");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> api.call("ann"))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("Api.call.0"));
        // refused by the first, the call counted under neither
        Limit hourly = this.context.getBean(RateLimitAdvisor.class).limits().stream()
            .filter((limit) -> limit.limitId().equals("Api.call.1")).findFirst().orElseThrow().limit();
        assertThat(this.limiter.state("Api.call.1", "ann", hourly).count()).isEqualTo(2);
    }

    @Test
    void eachLimitIsListedAndOverriddenOnItsOwn() {
        Api api = start(Api.class).getBean(Api.class);
        RateLimitAdvisor advisor = this.context.getBean(RateLimitAdvisor.class);
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
        Plans plans = start(Plans.class).getBean(Plans.class);
        decided.clear();
        plans.call("carl", "api");
        plans.call("dora", "free");
        assertThat(decided).containsExactly(List.of("Plans.call.api.0", "Plans.call.api.1"),
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

    private AnnotationConfigApplicationContext start(Class<?> bean) {
        return start(bean, Map.of("api", API, "free", FREE));
    }

    private AnnotationConfigApplicationContext start(Class<?> bean, Map<String, LimitPolicy> policies) {
        this.limiter = RedisRateLimiter.builder(redis).keyPrefix("policy-limits-" + UUID.randomUUID() + ":").build();
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getBeanFactory().registerSingleton("rateLimiter", new Recording(this.limiter));
        context.getBeanFactory().registerSingleton("settings",
                new RateLimitAdvisor.Settings(policies, BlankKey.REJECT, OnFailure.ALLOW));
        context.register(AdvisorConfig.class, bean);
        this.context = context;
        context.refresh();
        return context;
    }

    /** The limiter, recording each decision it is asked for. */
    record Recording(RateLimiter limiter) implements RateLimiter {

        @Override
        public Decision tryAcquire(List<LimitRequest> requests) {
            return tryAcquire(requests, null);
        }

        @Override
        public Decision tryAcquire(List<LimitRequest> requests, RateLimitListener listener) {
            decided.add(requests.stream().map(LimitRequest::limitId).toList());
            return this.limiter.tryAcquire(requests, new RateLimitListener() {

                @Override
                public void onDecision(List<LimitRequest> requests, List<Decision> each, Decision binding,
                        Duration latency) {
                    decisions.addAll(each);
                }

            });
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class AdvisorConfig {

        @Bean
        static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
            return new DefaultAdvisorAutoProxyCreator();
        }

        @Bean
        static RateLimitAdvisor rateLimitAdvisor(BeanFactory beanFactory) {
            return new RateLimitAdvisor(() -> beanFactory.getBean(RateLimiter.class), beanFactory,
                    () -> beanFactory.getBean(RateLimitAdvisor.Settings.class));
        }

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
