package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimiter;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.autoconfigure.redis.LimiterPolicyOverridesAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.observation.DecisionObservationConvention;
import io.github.limiter.observation.DefaultDecisionObservationConvention;
import io.github.limiter.reactive.ReactiveRateLimiter;
import io.github.limiter.redis.RedisPolicyOverrides;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.redis.RedisRateLimiterBuilder;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.WithRedis;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.Ordered;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@WithRedis
class LimiterAutoConfigurationTests {

    // how long Redis holds the first of ten decisions asked for at once
    private static final Duration PAUSE = Duration.ofSeconds(2);

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
                    LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterPolicyOverridesAutoConfiguration.class));

    @Test
    void providesRedisRateLimiterAndAdvisorWhenRedisIsConfigured() {
        this.runner.run(context -> {
            assertThat(context).hasSingleBean(RateLimiter.class);
            assertThat(context.getBean(RateLimiter.class)).isInstanceOf(RedisRateLimiter.class);
            assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            assertThat(context).hasSingleBean(LimiterProperties.class);
        });
    }

    @Test
    void resolvesPlaceholdersOfAnnotationsFromTheEnvironmentAndFailsTheStartOnAnUnresolvedOne() {
        ApplicationContextRunner boot = this.runner
            .withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class))
            .withBean(PlaceholderLimits.class);
        boot.withPropertyValues("reads.window=1h30m", "reads.ban-for=15m").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RateLimitAdvisor.class).limits()).singleElement().satisfies(limit -> {
                assertThat(limit.limit().window()).isEqualTo(Duration.ofMinutes(90));
                assertThat(limit.limit().banFor()).isEqualTo(Duration.ofMinutes(15));
            });
        });
        boot.withPropertyValues("reads.ban-for=15m").run(context -> assertThat(context).getFailure()
            .rootCause()
            .hasMessageContaining("Could not resolve placeholder 'reads.window'"));
    }

    @Test
    void refusesADefaultPolicyThatIsNotDefined() {
        this.runner.withPropertyValues("limiter.policies.free.window=1m", "limiter.policies.free.max=2",
                "limiter.default-policy=gold")
            .run(context -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("limiter.default-policy = 'gold' is not a policy; defined policies: [free]"));
    }

    @Test
    void providesAReactiveRateLimiterWhereReactorIsPresent() {
        this.runner.run(context -> assertThat(context).hasSingleBean(ReactiveRateLimiter.class));
        this.runner.withClassLoader(new FilteredClassLoader("reactor.core.publisher"))
            .run(context -> {
                assertThat(context).hasSingleBean(RateLimiter.class);
                assertThat(context).doesNotHaveBean(ReactiveRateLimiter.class);
            });
    }

    @Test
    void backsOffWithoutRedis() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LimiterRedisAutoConfiguration.class,
                    LimiterAutoConfiguration.class, LimiterPolicyOverridesAutoConfiguration.class))
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context).doesNotHaveBean(RateLimiter.class);
                assertThat(context).doesNotHaveBean(RateLimitAdvisor.class);
            });
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("limiter.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(RateLimiter.class);
            assertThat(context).doesNotHaveBean(RateLimitAdvisor.class);
            assertThat(context).doesNotHaveBean(LimiterProperties.class);
        });
    }

    @Test
    void theStartersLimiterIsAlsoTheRateLimitAdmin() {
        this.runner.run(context -> {
            assertThat(context).hasSingleBean(RateLimitAdmin.class);
            assertThat(context.getBean(RateLimitAdmin.class)).isSameAs(context.getBean(RateLimiter.class));
        });
    }

    @Test
    void usesTheApplicationsRateLimiter() {
        this.runner.withUserConfiguration(OwnRateLimiter.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimiter.class);
            assertThat(context.getBean(RateLimiter.class)).isSameAs(context.getBean(OwnRateLimiter.class).limiter);
            assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            // it decides only: it need not write the admin operations
            assertThat(context).doesNotHaveBean(RateLimitAdmin.class);
        });
    }

    @Test
    void appliesAnnotationsWithTheApplicationsRateLimiterEvenWithoutRedis() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterRedisAutoConfiguration.class,
                    LimiterAutoConfiguration.class, LimiterPolicyOverridesAutoConfiguration.class))
            .withUserConfiguration(OwnRateLimiter.class)
            .run(context -> {
                assertThat(context).hasSingleBean(RateLimiter.class);
                assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            });
    }

    @Test
    void usesTheApplicationsAdvisor() {
        this.runner.withUserConfiguration(OwnAdvisor.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            assertThat(context.getBean(RateLimitAdvisor.class)).isSameAs(context.getBean(OwnAdvisor.class).advisor);
        });
    }

    @Test
    void backsOffWhenRedisConnectionFactoryIsAmbiguous() {
        this.runner.withUserConfiguration(TwoConnectionFactories.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(RateLimiter.class);
            assertThat(context).doesNotHaveBean(RateLimitAdvisor.class);
        });
    }

    @Test
    void comparesKeysInNormalizationFormCUnlessSwitchedOff(EmbeddedRedis redis) {
        // "José": é as one code point, and as e followed by a combining acute accent
        String composed = "Jos\u00e9";
        String decomposed = "Jose\u0301";
        for (boolean normalized : new boolean[] { true, false }) {
            this.runner
                .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.host=" + redis.host(),
                        "limiter.key-prefix=nfc-" + UUID.randomUUID() + ":", "limiter.normalize-keys=" + normalized)
                .run(context -> {
                    RateLimiter limiter = context.getBean(RateLimiter.class);
                    limiter.tryAcquire("users", composed, 5, Duration.ofMinutes(1));
                    assertThat(limiter.tryAcquire("users", decomposed, 5, Duration.ofMinutes(1)).count())
                        .as("the second spelling's count, normalize-keys=%s", normalized)
                        .isEqualTo(normalized ? 2 : 1);
                });
        }
    }

    @Test
    void appliesTheBuilderCustomizersInOrderAfterTheProperties(EmbeddedRedis redis) {
        String configured = "configured-" + UUID.randomUUID() + ":";
        String customized = "customized-" + UUID.randomUUID() + ":";
        List<String> applied = new ArrayList<>();
        this.runner
            .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.host=" + redis.host(),
                    "limiter.key-prefix=" + configured)
            .withBean("second", RedisRateLimiterBuilderCustomizer.class, () -> new OrderedCustomizer(2, (builder) -> {
                applied.add("second");
                builder.keyPrefix(customized);
            }))
            .withBean("first", RedisRateLimiterBuilderCustomizer.class, () -> new OrderedCustomizer(1,
                    (builder) -> applied.add("first")))
            .run(context -> {
                assertThat(context.getBean(RateLimiter.class).tryAcquire("orders", "42", 5, Duration.ofMinutes(1))
                    .allowed()).isTrue();
                StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
                assertThat(template.hasKey(customized + "{orders:42}")).as("the customizer's prefix").isTrue();
                assertThat(template.hasKey(configured + "{orders:42}")).as("the property's prefix").isFalse();
                assertThat(applied).containsExactly("first", "second");
            });
    }

    /** A customizer in the order Spring sorts beans by. */
    private record OrderedCustomizer(int order, RedisRateLimiterBuilderCustomizer delegate)
            implements RedisRateLimiterBuilderCustomizer, Ordered {

        @Override
        public void customize(RedisRateLimiterBuilder builder) {
            this.delegate.customize(builder);
        }

        @Override
        public int getOrder() {
            return this.order;
        }

    }

    @Test
    void writesKeysUnderTheConfiguredPrefix(EmbeddedRedis redis) {
        String prefix = "it-" + UUID.randomUUID() + ":";
        this.runner
            .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.host=" + redis.host(),
                    "limiter.key-prefix=" + prefix)
            .run(context -> {
                Decision decision = context.getBean(RateLimiter.class)
                    .tryAcquire("orders", "42", 5, Duration.ofMinutes(1));
                assertThat(decision.allowed()).isTrue();
                StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
                assertThat(template.hasKey(prefix + "{orders:42}")).isTrue();
            });
    }

    @Test
    void observesEachDecisionInTheApplicationsObservationRegistry(EmbeddedRedis redis) {
        TestObservationRegistry observations = TestObservationRegistry.create();
        this.runner.withBean(ObservationRegistry.class, () -> observations)
            .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.host=" + redis.host(),
                    "limiter.key-prefix=observed-" + UUID.randomUUID() + ":")
            .run(context -> {
                RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);
                assertThat(limiter.getObservationRegistry()).isSameAs(observations);
                limiter.tryAcquire("orders", "42", 1, Duration.ofMinutes(1));
                limiter.tryAcquireAsync("orders", "42", Limit.of(1, Duration.ofMinutes(1)))
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
                TestObservationRegistryAssert.assertThat(observations)
                    .hasNumberOfObservationsWithNameEqualTo("limiter.decision", 2)
                    .hasAnObservation(observation -> observation.hasNameEqualTo("limiter.decision")
                        .hasLowCardinalityKeyValue("limit", "orders")
                        .hasLowCardinalityKeyValue("outcome", "allowed"))
                    .hasAnObservation(observation -> observation.hasNameEqualTo("limiter.decision")
                        .hasLowCardinalityKeyValue("limit", "orders")
                        .hasLowCardinalityKeyValue("outcome", "rejected"));
            });
    }

    @Test
    void observesDecisionsWithTheApplicationsConvention(EmbeddedRedis redis) {
        TestObservationRegistry observations = TestObservationRegistry.create();
        this.runner.withBean(ObservationRegistry.class, () -> observations)
            .withBean(DecisionObservationConvention.class, () -> new DefaultDecisionObservationConvention() {

                @Override
                public String getName() {
                    return "shop.rate.limit";
                }

            })
            .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.host=" + redis.host(),
                    "limiter.key-prefix=observed-" + UUID.randomUUID() + ":")
            .run(context -> {
                context.getBean(RateLimiter.class).tryAcquire("orders", "42", 1, Duration.ofMinutes(1));
                TestObservationRegistryAssert.assertThat(observations)
                    .hasNumberOfObservationsWithNameEqualTo("shop.rate.limit", 1)
                    .hasNumberOfObservationsWithNameEqualTo("limiter.decision", 0);
            });
    }

    @Test
    void observesNothingWithoutAnObservationRegistryOrWithTheNoOpOne() {
        this.runner.run(context -> assertThat(context.getBean(RedisRateLimiter.class).getObservationRegistry())
            .isSameAs(ObservationRegistry.NOOP));
        this.runner.withBean(ObservationRegistry.class, () -> ObservationRegistry.NOOP)
            .run(context -> assertThat(context.getBean(RedisRateLimiter.class).getObservationRegistry())
                .isSameAs(ObservationRegistry.NOOP));
    }

    @Test
    void rejectsAKeyPrefixThatWouldBreakTheHashTag() {
        this.runner.withPropertyValues("limiter.key-prefix=app{1}:").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                .hasMessageContaining("limiter.key-prefix 'app{1}:' must not contain '{' or '}'");
        });
    }

    @Test
    void bindsOnFailureLocalAndRefusesAValueItDoesNotKnow() {
        this.runner
            .withPropertyValues("limiter.redis.on-failure=local", "limiter.policies.quotes.window=1m",
                    "limiter.policies.quotes.max=5", "limiter.policies.quotes.on-failure=LOCAL")
            .run(context -> {
                LimiterProperties properties = context.getBean(LimiterProperties.class);
                assertThat(properties.getRedis().getOnFailure()).isEqualTo(OnFailure.LOCAL);
                assertThat(properties.getPolicies().get("quotes").getOnFailure()).isEqualTo(OnFailure.LOCAL);
            });
        this.runner.withPropertyValues("limiter.redis.on-failure=locally").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                .hasStackTraceContaining("Failed to bind properties under 'limiter.redis.on-failure'")
                .hasStackTraceContaining("No enum constant io.github.limiter.OnFailure.locally");
        });
    }

    @Test
    void refusesKnownRefusedKeysFromMemoryUnlessSwitchedOff() {
        Limit banning = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(5));
        AtomicReference<RedisRateLimiter> started = new AtomicReference<>();
        try (EmbeddedRedis own = EmbeddedRedis.start()) {
            this.runner.withPropertyValues("spring.data.redis.port=" + own.port()).run(context -> {
                RedisRateLimiter subscription = context.getBean(RedisRateLimiter.class);
                started.set(subscription);
                assertThat(subscription.health().subscribes()).isTrue();
                assertThat(subscription.isRunning()).as("started with the context").isTrue();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!subscription.health().hearsOtherInstances() && System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                }
                assertThat(subscription.health().hearsOtherInstances()).as("subscribed to unbans and resets").isTrue();
                RateLimiter limiter = context.getBean(RateLimiter.class);
                limiter.tryAcquire("cached", "k", banning);
                limiter.tryAcquire("cached", "k", banning);
                own.kill();
                assertThat(limiter.tryAcquire("cached", "k", banning).banned())
                    .as("refused from memory while Redis is gone").isTrue();
            });
        }
        assertThat(started.get().isRunning()).as("stopped with the context").isFalse();
        assertThat(started.get().health().hearsOtherInstances()).isFalse();
        this.runner.withPropertyValues("limiter.local-cache.enabled=false")
            .run(context -> {
                assertThat(context.getBean(RedisRateLimiter.class).health().subscribes()).isFalse();
                assertThat(context.getBean(RedisRateLimiter.class).health().remembersRefusals()).isFalse();
            });
    }

    @Test
    void aPollIntervalThatIsNotPositiveFailsTheStart() {
        this.runner.withPropertyValues("limiter.policy-overrides.poll-interval=0s")
            .run(context -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("limiter.policy-overrides.poll-interval = 'PT0S' must be positive"));
    }

    @Test
    void bindsPolicies() {
        this.runner
            .withPropertyValues("limiter.policies.answers.window=60s", "limiter.policies.answers.max=20",
                    "limiter.policies.answers.alert-at=10", "limiter.policies.answers.ban-for=15m",
                    "limiter.policies.reads.window=PT1H")
            .run(context -> {
                assertThat(context).hasNotFailed();
                LimiterPolicyProperties answers = context.getBean(LimiterProperties.class).getPolicies().get("answers");
                assertThat(answers.getWindow()).isEqualTo(Duration.ofMinutes(1));
                assertThat(answers.getMax()).isEqualTo(20);
                assertThat(answers.getAlertAt()).isEqualTo(10);
                assertThat(answers.getBanFor()).isEqualTo(Duration.ofMinutes(15));
                assertThat(context.getBean(LimiterProperties.class).getPolicies().get("reads").getMax()).isNull();
            });
    }

    @Test
    void bindsACalendarPolicyWithItsZoneAndLimitsByIt() {
        this.runner.withBean(MonthlyLimits.class)
            .withPropertyValues("limiter.policies.monthly.calendar=month", "limiter.policies.monthly.zone=Europe/Berlin",
                    "limiter.policies.monthly.max=10000")
            .run(context -> {
                assertThat(context).hasNotFailed();
                LimiterPolicyProperties monthly = context.getBean(LimiterProperties.class).getPolicies().get("monthly");
                assertThat(monthly.getCalendar()).isEqualTo(CalendarWindow.MONTH);
                assertThat(monthly.getZone()).isEqualTo("Europe/Berlin");
                assertThat(context.getBean(RateLimitAdvisor.class).limits()).singleElement()
                    .satisfies((limit) -> assertThat(limit.limit())
                        .isEqualTo(Limit.of(10_000, CalendarWindow.MONTH, ZoneId.of("Europe/Berlin"))));
            });
    }

    @Test
    void aCalendarPolicyThatCannotWorkFailsTheStart() {
        assertStartFails("limiter.policies.monthly.calendar = 'month' excludes window ('PT720H')",
                "limiter.policies.monthly.calendar=month", "limiter.policies.monthly.window=30d",
                "limiter.policies.monthly.max=5");
        assertStartFails("limiter.policies.monthly.algorithm = 'token-bucket' cannot count calendar month periods",
                "limiter.policies.monthly.calendar=month", "limiter.policies.monthly.algorithm=token-bucket",
                "limiter.policies.monthly.max=5");
        assertStartFails("limiter.policies.monthly.zone = 'Europe/Berln' is not a zone id",
                "limiter.policies.monthly.calendar=month", "limiter.policies.monthly.zone=Europe/Berln",
                "limiter.policies.monthly.max=5");
        assertStartFails("limiter.policies.daily.zone = 'Europe/Berlin' needs a calendar",
                "limiter.policies.daily.window=1d", "limiter.policies.daily.zone=Europe/Berlin",
                "limiter.policies.daily.max=5");
    }

    @Test
    void bindsThePolicysAlgorithmInKebabCase() {
        this.runner.withPropertyValues("limiter.policies.quota.algorithm=token-bucket", "limiter.policies.quota.window=1h",
                "limiter.policies.quota.max=1000")
            .run(context -> assertThat(context.getBean(LimiterProperties.class).getPolicies().get("quota").getAlgorithm())
                .isEqualTo(Algorithm.TOKEN_BUCKET));
    }

    @Test
    void maxTooLargeForThePolicysAlgorithmFailsTheStart() {
        assertStartFails("limiter.policies.quota.max = '100000000000' is too large for PT24H with SLIDING_WINDOW",
                "limiter.policies.quota.algorithm=sliding-window", "limiter.policies.quota.window=1d",
                "limiter.policies.quota.max=100000000000");
    }

    @Test
    void alertAtNotBelowMaxFailsTheStart() {
        assertStartFails("limiter.policies.answers.alert-at = '20' must be less than max (20)",
                "limiter.policies.answers.window=60s", "limiter.policies.answers.max=20",
                "limiter.policies.answers.alert-at=20");
    }

    @Test
    void aBurstOffATokenBucketOrBelowMaxFailsTheStart() {
        assertStartFails("limiter.policies.partner.burst = '100' is a token bucket's: FIXED_WINDOW allows max calls",
                "limiter.policies.partner.window=1s", "limiter.policies.partner.max=10",
                "limiter.policies.partner.burst=100");
        assertStartFails("limiter.policies.partner.burst = '5' is below max (10)",
                "limiter.policies.partner.algorithm=token-bucket", "limiter.policies.partner.window=1s",
                "limiter.policies.partner.max=10", "limiter.policies.partner.burst=5");
    }

    @Test
    void aPolicysSeveralLimitsAreCheckedEachAndOneLevelDeep() {
        assertStartFails("limiter.policies.api.limits[1].alert-at = '5000' must be less than max (1000)",
                "limiter.policies.api.limits[0].window=1s", "limiter.policies.api.limits[0].max=10",
                "limiter.policies.api.limits[1].window=1h", "limiter.policies.api.limits[1].max=1000",
                "limiter.policies.api.limits[1].alert-at=5000");
        assertStartFails("limiter.policies.api.limits[0].limits is set: a policy's limits are one level deep",
                "limiter.policies.api.limits[0].window=1s", "limiter.policies.api.limits[0].max=10",
                "limiter.policies.api.limits[0].limits[0].max=1");
        assertStartFails("limiter.policies.partner.max-wait = 'PT-1S' is negative",
                "limiter.policies.partner.window=1s", "limiter.policies.partner.max=10",
                "limiter.policies.partner.max-wait=-1s");
    }

    @Test
    void aLocalShareOutsideZeroToOneFailsTheStart() {
        assertStartFails("limiter.redis.local-share = '0.0' must be above 0 and at most 1",
                "limiter.redis.local-share=0");
        assertStartFails("limiter.redis.local-share = '1.5' must be above 0 and at most 1",
                "limiter.redis.local-share=1.5");
    }

    @Test
    void policyWithoutWindowFailsTheStart() {
        assertStartFails("limiter.policies.answers.window = '' is not set; every limit needs a window or a calendar",
                "limiter.policies.answers.max=20");
    }

    @Test
    void zeroOrNegativeDurationsFailTheStart() {
        assertStartFails("limiter.policies.answers.window = 'PT0S' is under 1 ms", "limiter.policies.answers.window=0s",
                "limiter.policies.answers.max=20");
        assertStartFails("limiter.policies.answers.ban-for = 'PT-5M' is under 1 ms",
                "limiter.policies.answers.window=1m", "limiter.policies.answers.max=20",
                "limiter.policies.answers.ban-for=-5m");
    }

    @Test
    void banWithoutMaxFailsTheStart() {
        assertStartFails("limiter.policies.answers.ban-for = 'PT15M' needs a max",
                "limiter.policies.answers.window=1m", "limiter.policies.answers.ban-for=15m");
    }

    @Test
    void banStatusThatIsNotAnErrorFailsTheStart() {
        assertStartFails("limiter.web.ban-status = '200' must be an HTTP error status (400 to 599)",
                "limiter.web.ban-status=200");
    }

    @Test
    void coalescesConcurrentDecisionsByDefault() {
        try (EmbeddedRedis own = EmbeddedRedis.start()) {
            this.runner.withPropertyValues(ownRedis(own)).run(context -> {
                LimiterRedisProperties.Coalescing coalescing = context.getBean(LimiterProperties.class)
                    .getRedis()
                    .getCoalescing();
                assertThat(coalescing.isEnabled()).isTrue();
                assertThat(coalescing.getMaxBatch()).isEqualTo(64);
                // the first alone, the nine sent while it was in flight together
                assertThat(scriptCallsForTenDecisionsAtOnce(context, own)).isEqualTo(2);
            });
        }
    }

    @Test
    void sendsEachDecisionAloneWithCoalescingSwitchedOff() {
        try (EmbeddedRedis own = EmbeddedRedis.start()) {
            this.runner.withPropertyValues(ownRedis(own)).withPropertyValues("limiter.redis.coalescing.enabled=false")
                .run(context -> {
                    assertThat(context.getBean(LimiterProperties.class).getRedis().getCoalescing().isEnabled())
                        .isFalse();
                    assertThat(scriptCallsForTenDecisionsAtOnce(context, own)).isEqualTo(10);
                });
        }
    }

    @Test
    void sendsAtMostMaxBatchDecisionsInOneScriptCall() {
        try (EmbeddedRedis own = EmbeddedRedis.start()) {
            this.runner.withPropertyValues(ownRedis(own)).withPropertyValues("limiter.redis.coalescing.max-batch=3")
                .run(context -> {
                    assertThat(context.getBean(LimiterProperties.class).getRedis().getCoalescing().getMaxBatch())
                        .isEqualTo(3);
                    // the first alone, then the nine that waited, three by three
                    assertThat(scriptCallsForTenDecisionsAtOnce(context, own)).isEqualTo(4);
                });
        }
    }

    @Test
    void sendsEachDecisionAloneWithJedis() {
        try (EmbeddedRedis own = EmbeddedRedis.start()) {
            this.runner.withPropertyValues(ownRedis(own)).withPropertyValues("spring.data.redis.client-type=jedis")
                .run(context -> assertThat(scriptCallsForTenDecisionsAtOnce(context, own)).isEqualTo(10));
        }
    }

    @Test
    void maxBatchOutsideTwoToAThousandFailsTheStart() {
        assertStartFails("limiter.redis.coalescing.max-batch = '1' must be from 2 to 1000",
                "limiter.redis.coalescing.max-batch=1");
        assertStartFails("limiter.redis.coalescing.max-batch = '5000' must be from 2 to 1000",
                "limiter.redis.coalescing.max-batch=5000");
    }

    /**
     * The properties for a server of the test's own, whose command counts no other test changes,
     * with Lettuce (coalescing is Lettuce's only) whatever client the build's execution asks for.
     */
    private static String[] ownRedis(EmbeddedRedis own) {
        // a timeout longer than the pause below, so that the held decisions wait rather than fail
        return new String[] { "spring.data.redis.host=" + own.host(), "spring.data.redis.port=" + own.port(),
                "spring.data.redis.client-type=lettuce", "limiter.key-prefix=coalescing-" + UUID.randomUUID() + ":",
                "limiter.redis.timeout=10s" };
    }

    /**
     * Sends ten decisions on one key at once while Redis holds the first, and answers how many
     * script calls Redis ran for them.
     */
    private static long scriptCallsForTenDecisionsAtOnce(AssertableApplicationContext context, EmbeddedRedis own) {
        assertThat(context).hasNotFailed();
        RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);
        // the connection is open and the scripts are loaded: the pause holds the first decision
        limiter.check();
        Limit hundredPerMinute = Limit.of(100, Duration.ofMinutes(1));
        long before = own.commandCalls().getOrDefault("evalsha", 0L);
        // the ten are asked for while the first is held: 500 ms was once too short on a loaded machine
        // (the full build's forks), where the first came back before the last were asked for
        own.withCommands(commands -> commands.clientPause(PAUSE.toMillis()));
        long start = System.nanoTime();
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            decisions.add(limiter.tryAcquireAsync("coalesced", "k", hundredPerMinute).toCompletableFuture());
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the ten asked for while Redis was paused")
            .isLessThan(PAUSE);
        for (CompletableFuture<Decision> decision : decisions) {
            assertThat(decision).succeedsWithin(Duration.ofSeconds(10)).satisfies(d -> assertThat(d.allowed()).isTrue());
        }
        long scriptCalls = own.commandCalls().getOrDefault("evalsha", 0L) - before;
        // read after counting: the read is a script call too
        assertThat(limiter.state("coalesced", "k", hundredPerMinute).count()).isEqualTo(10);
        return scriptCalls;
    }

    private void assertStartFails(String message, String... properties) {
        this.runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(message);
        });
    }

    static class MonthlyLimits {

        @RateLimit(key = "#apiKey", policy = "monthly")
        public void call(String apiKey) {
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class PlaceholderLimits {

        @RateLimit(key = "#user", window = "${reads.window}", max = 20, alertAt = 10, banFor = "${reads.ban-for}")
        public void read(String user) {
        }

    }

    static class OwnRateLimiter {

        final RateLimiter limiter = new RateLimiter() {

            @Override
            public Decision tryAcquire(List<LimitRequest> requests) {
                LimitRequest first = requests.get(0);
                return Decision.allow(first.limitId(), first.key(), first.limit().max(), 1, first.limit().window());
            }

        };

        @Bean
        RateLimiter myRateLimiter() {
            return this.limiter;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvisor {

        final RateLimitAdvisor advisor = new RateLimitAdvisor(() -> {
            throw new IllegalStateException("not used");
        }, null);

        @Bean
        RateLimitAdvisor myAdvisor() {
            return this.advisor;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class TwoConnectionFactories {

        @Bean
        RedisConnectionFactory first() {
            return new LettuceConnectionFactory();
        }

        @Bean
        RedisConnectionFactory second() {
            return new LettuceConnectionFactory();
        }

    }

}
