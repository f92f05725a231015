package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.github.limiter.Algorithm;
import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.LimitDescription;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowable;

@WithRedis
class RateLimitAdvisorIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private AnnotationConfigApplicationContext context;

    private String prefix;

    private BlankKey blankKey = BlankKey.REJECT;

    private Map<String, Object> properties = Map.of();

    private @Nullable String defaultPolicy;

    private Map<String, LimitPolicy> policies = Map.of("answers",
            new LimitPolicy(null, Duration.ofMinutes(1), 20L, 10L, Duration.ofMinutes(15)), "relaxed",
            new LimitPolicy(null, Duration.ofHours(1), null, null, null), "noisy",
            new LimitPolicy(null, Duration.ofMinutes(1), 5L, 5L, null), "logged",
            new LimitPolicy(Algorithm.SLIDING_LOG, Duration.ofMinutes(1), 3L, null, null));

    @AfterEach
    void close() {
        if (this.context != null) {
            this.context.close();
        }
    }

    @Test
    void limitsAMethodOfAClassProxiedWithCglib() {
        Answers answers = start(Answers.class).getBean(Answers.class);
        assertThat(AopUtils.isCglibProxy(answers)).isTrue();
        assertThat(answers.answer(1, "alice")).isEqualTo("answer 1");
        assertThat(answers.answer(2, "alice")).isEqualTo("answer 2");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> answers.answer(3, "alice"))
            .satisfies(ex -> {
                assertThat(ex.getLimitId()).isEqualTo("Answers.answer");
                assertThat(ex.getKey()).isEqualTo("alice");
                assertThat(ex.getLimit()).isEqualTo(2);
                assertThat(ex.getRetryAfter()).isPositive();
            });
        assertThat(answers.answer(4, "bob")).isEqualTo("answer 4");
        assertThat(answers.calls()).isEqualTo(3);
        assertThat(redis.hasKey(this.prefix + "{Answers.answer:alice}")).isTrue();
    }

    @Test
    void limitsAMethodOfABeanProxiedThroughItsInterface() {
        Greeter greeter = start(PoliteGreeter.class).getBean(Greeter.class);
        assertThat(AopUtils.isJdkDynamicProxy(greeter)).isTrue();
        assertThat(greeter.greet("alice")).isEqualTo("hello alice");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> greeter.greet("alice"))
            .satisfies(ex -> assertThat(ex.getLimitId()).isEqualTo("PoliteGreeter.greet"));
        assertThat(greeter.greet("bob")).isEqualTo("hello bob");
    }

    @Test
    void classLevelAnnotationGivesEveryPublicMethodItsOwnCounter() {
        Reports reports = start(Reports.class).getBean(Reports.class);
        assertThat(reports.daily()).isEqualTo("daily");
        assertThat(reports.weekly()).isEqualTo("weekly");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(reports::daily);
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(reports::weekly);
        assertThat(reports.unlimited()).isEqualTo("twice");
        assertThat(reports.unlimited()).isEqualTo("twice");
        assertThat(redis.hasKey(this.prefix + "{Reports.daily}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Reports.weekly}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Reports.unlimited}")).isTrue();
        assertThat(reports.toString()).startsWith("Reports");
    }

    @Test
    void keysSeeArgumentsByNameNestedPropertiesPositionsArgsMethodAndBeans() {
        Keys keys = start(Keys.class).getBean(Keys.class);
        keys.byName("alice");
        keys.nested(new Form(new User("u-7")));
        keys.byPosition("p", "q");
        keys.byArgs("x", "y");
        keys.byMethod();
        keys.byBean();
        assertThat(redis.hasKey(this.prefix + "{Keys.byName:alice}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Keys.nested:u-7}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Keys.byPosition:q}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Keys.byArgs:y}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Keys.byMethod:byMethod}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Keys.byBean:acme}")).isTrue();
    }

    @Test
    void anExpressionThatFailsForACallRefusesItNamingTheLimitTheAttributeAndTheExpression() {
        Failing failing = start(Failing.class).getBean(Failing.class);
        assertThatExceptionOfType(RateLimitExpressionException.class).isThrownBy(() -> failing.initials("al"))
            .withMessage("Rate limit 'Failing.initials' of Failing.initials(String) could not evaluate its key "
                    + "'#user.substring(3)' for this call: begin 3, end 2, length 2")
            .withCauseInstanceOf(StringIndexOutOfBoundsException.class)
            .satisfies((ex) -> assertThat(List.of(ex.getLimitId(), ex.getAttribute(), ex.getExpression()))
                .containsExactly("Failing.initials", "key", "#user.substring(3)"));
        assertThatExceptionOfType(RateLimitExpressionException.class)
            .isThrownBy(() -> failing.upload("ann", List.of("a")))
            .satisfies((ex) -> assertThat(List.of(ex.getAttribute(), ex.getExpression()))
                .containsExactly("cost", "#files.get(1).length()"));
        assertThat(failing.calls()).as("the method is not called").isZero();
        failing.initials("alice");
        failing.upload("ann", List.of("a", "bc"));
        assertThat(failing.calls()).isEqualTo(2);
    }

    @Test
    void aKeyThatEvaluatesToNullOrBlankRejectsTheCallWithoutCallingTheMethod() {
        Keys keys = start(Keys.class).getBean(Keys.class);
        assertThatIllegalStateException().isThrownBy(() -> keys.byName(null))
            .withMessage("Rate limit key '#user' of Keys.byName(String) evaluated to null or a blank string; the "
                    + "call is rejected because it cannot be counted (limiter.blank-key=skip skips the limit instead)");
        assertThatIllegalStateException().isThrownBy(() -> keys.byName("  "))
            .withMessageContaining("evaluated to null or a blank string")
            .isInstanceOfSatisfying(BlankRateLimitKeyException.class, (ex) -> {
                assertThat(ex.getLimitId()).isEqualTo("Keys.byName");
                assertThat(ex.getKeyExpression()).isEqualTo("#user");
            });
        assertThat(keys.calls()).isZero();
    }

    @Test
    void aKeyThatEvaluatesToNothingSkipsTheLimitWhenSoConfiguredLoggedOnceAndToldToListeners() {
        this.blankKey = BlankKey.SKIP;
        AnnotationConfigApplicationContext context = start(Keys.class);
        List<String> skipped = new CopyOnWriteArrayList<>();
        context.getBeanFactory().registerSingleton("skips", new RateLimitListener() {

            @Override
            public void onSkipped(String limitId, Limit limit) {
                skipped.add(limitId + " max " + limit.max());
            }

        });
        Keys keys = context.getBean(Keys.class);
        Logger logger = (Logger) LoggerFactory.getLogger(RateLimitInterceptor.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            for (int call = 0; call < 7; call++) {
                keys.byName((call % 2 == 0) ? null : " ");
            }
        }
        finally {
            logger.detachAppender(logged);
        }
        assertThat(keys.calls()).as("max is 5, but no key, no limit").isEqualTo(7);
        assertThat(redis.keys(this.prefix + "*")).isEmpty();
        assertThat(skipped).hasSize(7).containsOnly("Keys.byName max 5");
        assertThat(logged.list).singleElement().satisfies((event) -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).startsWith("Rate limit 'Keys.byName' of Keys.byName(String) was "
                    + "skipped: its key '#user' evaluated to null or a blank string and limiter.blank-key is skip");
        });
    }

    @Test
    void aNameSharesOneCounterBetweenMethods() {
        Shared shared = start(Shared.class).getBean(Shared.class);
        shared.first();
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(shared::second)
            .satisfies(ex -> assertThat(ex.getLimitId()).isEqualTo("exports"));
    }

    @Test
    void unparseableWindowFailsTheStart() {
        assertStartFails(BadWindow.class, "window", "BadWindow.call(String)", "window = 'soon' is not a duration");
    }

    @Test
    void windowUnderOneMillisecondFailsTheStart() {
        assertStartFails(TinyWindow.class, "window", "TinyWindow.call()", "window = '0ms' is under 1 ms");
    }

    @Test
    void maxBelowOneFailsTheStart() {
        assertStartFails(ZeroMax.class, "max", "ZeroMax.call()", "max = '0' must be at least 1");
    }

    @Test
    void missingMaxFailsTheStart() {
        assertStartFails(NoMax.class, "max", "NoMax.call()", "max = '-1' is not set");
    }

    @Test
    void spelSyntaxErrorFailsTheStart() {
        assertStartFails(BadKey.class, "key", "BadKey.call(String)", "key = '#user +' is not a valid SpEL expression");
    }

    @Test
    void aKeyReadingNoParameterFailsTheStartNamingTheParametersThatExist() {
        assertStartFails(MistypedKey.class, "key", "MistypedKey.answer(long, String)",
                "key = '#userid' reads #userid, which is neither a parameter of the method nor a variable the "
                        + "limiter provides: its parameters are #questionId, #userId; also #a0..#a1 or #p0..#p1, "
                        + "#args, #method and, in web requests, #clientIp");
    }

    @Test
    void aMethodTheParametersClassLacksFailsTheStart() {
        assertStartFails(MistypedMethod.class, "key", "MistypedMethod.answer(long, String)",
                "key = '#userId.toUppercase()' calls toUppercase on #userId, a String, which has no public method "
                        + "toUppercase taking 0 arguments; did you mean toUpperCase?: every call would fail");
    }

    @Test
    void aPropertyTheParametersClassLacksFailsTheStartAlongTheChain() {
        assertStartFails(MistypedProperty.class, "cost", "MistypedProperty.login(Form)",
                "cost = '#form.user.name.length()' reads name of #form.user, a User, which has no such property "
                        + "(no getName(), isName(), name() or public field name): every call would fail");
    }

    @Test
    void aChainIsCheckedOnlyWhileItsClassesAreKnownAtStart() {
        Unchecked unchecked = start(Unchecked.class).getBean(Unchecked.class);
        assertThat(unchecked.anything("ann")).isEqualTo("ann");
        assertThatExceptionOfType(RateLimitExpressionException.class).isThrownBy(() -> unchecked.anything(42))
            .withMessageContaining("could not evaluate its key '#value.trim()'");
    }

    @Test
    void aCostReadingNoParameterFailsTheStart() {
        assertStartFails(MistypedCost.class, "cost", "MistypedCost.upload(List)",
                "cost = '#file.size()' reads #file, which is neither a parameter");
    }

    @Test
    void resolvesPlaceholdersInWindowBanForNameAndPolicyAtStart() {
        this.properties = Map.of("answers.window", "1h30m", "answers.ban", "15m", "answers.name", "reads");
        RateLimitAdvisor advisor = start(Placeholders.class).getBean(RateLimitAdvisor.class);
        assertThat(advisor.limits()).singleElement().satisfies((limit) -> {
            assertThat(limit.limitId()).isEqualTo("reads");
            assertThat(limit.limit().window()).isEqualTo(Duration.ofMinutes(90));
            assertThat(limit.limit().banFor()).isEqualTo(Duration.ofMinutes(15));
            assertThat(limit.limit().max()).isEqualTo(20);
        });
    }

    @Test
    void anUnresolvablePlaceholderFailsTheStart() {
        this.properties = Map.of("answers.name", "reads");
        assertStartFails(Placeholders.class, "window", "Placeholders.answer(String)",
                "window = '${answers.window}' has a placeholder that cannot be resolved");
    }

    @Test
    void aLimitOnAMethodNoProxyCanInterceptFailsTheStartEvenBesideAPublicLimitedMethod() {
        assertStartFails(PrivateLimit.class, "method", "PrivateLimit.helper(String)",
                "method = 'private' can never apply: Spring's proxies intercept public instance methods only");
        assertStartFails(ProtectedLimit.class, "method", "ProtectedLimit.call(String)",
                "method = 'protected' can never apply");
        assertStartFails(StaticLimit.class, "method", "StaticLimit.call(String)", "method = 'static' can never apply");
    }

    @Test
    void aPublicFinalMethodFailsTheStartNamingTheFix() {
        assertStartFails(FinalLimit.class, "method", "FinalLimit.call(String)",
                "method = 'final' can never apply: it is final, so Spring's class-based (CGLIB) proxy cannot "
                        + "override it, and no interface of the class declares the method for an interface-based "
                        + "proxy; calls to it would never be limited. Remove final from the method.");
    }

    @Test
    void aMethodOfAFinalClassOnNoInterfaceFailsTheStart() {
        assertStartFails(FinalClassLimit.class, "method", "FinalClassLimit.call(String)",
                "method = 'final' can never apply: its class is final, so Spring's class-based (CGLIB) proxy "
                        + "cannot subclass the class, and no interface of the class declares the method for an "
                        + "interface-based proxy; calls to it would never be limited. Remove final from the class.");
    }

    @Test
    void aFinalMethodDeclaredOnAnInterfaceIsLimitedThroughAnInterfaceBasedProxy() {
        for (Class<?> greeter : List.of(FinalGreeter.class, FinalClassGreeter.class)) {
            Greeter proxied = start(greeter).getBean(Greeter.class);
            assertThat(AopUtils.isJdkDynamicProxy(proxied)).isTrue();
            assertThat(proxied.greet("alice")).isEqualTo("hello alice");
            assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> proxied.greet("alice"));
            this.context.close();
        }
    }

    @Test
    void aFinalMethodDeclaredOnAnInterfaceFailsTheStartWhenTheProxyIsClassBased() {
        this.properties = Map.of("test.proxy-target-class", "true");
        assertStartFails(FinalGreeter.class, "method", "FinalGreeter.greet(String)",
                "method = 'final' can never apply: it is final, and this bean gets a class-based (CGLIB) proxy, "
                        + "which cannot override it; calls to it would never be limited. Remove final from the "
                        + "method (or have Spring proxy the bean through its interfaces");
        assertStartFails(FinalClassGreeter.class, "method", "FinalClassGreeter.greet(String)",
                "method = 'final' can never apply: its class is final, and this bean gets a class-based (CGLIB) "
                        + "proxy, which cannot subclass the class; calls to it would never be limited. Remove final "
                        + "from the class (or have Spring proxy the bean through its interfaces");
    }

    @Test
    void aPolicyChosenPerCallGivesEachPlanItsLimitAndItsOwnCount() {
        this.policies = PLANS;
        AnnotationConfigApplicationContext context = start(Plans.class);
        Plans plans = context.getBean(Plans.class);
        Reader free = new Reader("ann", "free");
        Reader pro = new Reader("bo", "pro");
        for (int call = 0; call < 2; call++) {
            plans.read(free);
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> plans.read(free))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("reads.free"));
        for (int call = 0; call < 5; call++) {
            plans.read(pro);
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> plans.read(pro))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("reads.pro"));
        assertThat(context.getBean(RateLimitAdvisor.class).limits()).extracting(LimitDescription::limitId)
            .containsExactly("reads.free", "reads.pro");
        assertThat(redis.hasKey(this.prefix + "{reads.free:ann}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{reads.pro:bo}")).isTrue();
    }

    @Test
    void aReaderWhoUpgradesMidWindowGetsTheNewPlansLimitWithAFreshCount() {
        this.policies = PLANS;
        Plans plans = start(Plans.class).getBean(Plans.class);
        for (int call = 0; call < 2; call++) {
            plans.read(new Reader("ann", "free"));
        }
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> plans.read(new Reader("ann", "free")));
        for (int call = 0; call < 5; call++) {
            plans.read(new Reader("ann", "pro"));
        }
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> plans.read(new Reader("ann", "pro")));
        assertThat(plans.calls()).as("2 on free, then pro's 5: the free count is not carried over").isEqualTo(7);
    }

    @Test
    void aPlanThatNamesNoPolicyIsRefusedWithTheDefinedOnesOrTakesTheDefaultPolicy() {
        this.policies = PLANS;
        Plans plans = start(Plans.class).getBean(Plans.class);
        assertThatIllegalStateException().isThrownBy(() -> plans.read(new Reader("cy", "gold")))
            .withMessage("Rate limit policy '#{#reader.plan}' of Plans.read(Reader) chose 'gold', which is no policy; "
                    + "defined policies: [free, pro]. The call is refused; limiter.default-policy names a policy for "
                    + "such calls");
        assertThatIllegalStateException().isThrownBy(() -> plans.read(new Reader("cy", null)))
            .withMessageContaining("chose nothing (null or blank)");
        assertThat(plans.calls()).isZero();

        this.context.close();
        this.defaultPolicy = "free";
        Plans withDefault = start(Plans.class).getBean(Plans.class);
        for (int call = 0; call < 2; call++) {
            withDefault.read(new Reader("cy", "gold"));
        }
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> withDefault.read(new Reader("cy", "gold")))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("reads.free"));
    }

    @Test
    void everyPolicyAPerCallChoiceCanNameIsCheckedAtStart() {
        this.policies = Map.of("free", new LimitPolicy(null, Duration.ofMinutes(1), 2L, null, null), "pro",
                new LimitPolicy(null, Duration.ofMinutes(1), 5L, null, null));
        assertStartFails(PlansWithAlerts.class, "alertAt", "PlansWithAlerts.read(Reader)",
                "alertAt = '3' must be less than max (2): the alert is for calls that are still allowed (under policy "
                        + "'free', which '#{#reader.plan}' can choose)");
        assertStartFails(PlansMistyped.class, "policy", "PlansMistyped.read(Reader)",
                "policy = '#{#user.plan}' reads #user, which is neither a parameter");
        this.defaultPolicy = "gold";
        assertStartFails(Plans.class, "policy", "Plans.read(Reader)",
                "falls back to limiter.default-policy 'gold', which is not defined");
    }

    @Test
    void invalidNameFailsTheStart() {
        assertStartFails(BadName.class, "name", "BadName.call()", "name = 'a:b' must not contain");
    }

    @Test
    void takesUnsetAttributesFromThePolicyAndSetOnesFromTheAnnotation() {
        Policies policies = start(Policies.class).getBean(Policies.class);
        for (int call = 1; call <= 20; call++) {
            policies.fromPolicy("erin");
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> policies.fromPolicy("erin"))
            .satisfies(ex -> {
                assertThat(ex.isBanned()).as("the policy's ban-for applies").isTrue();
                assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofMinutes(15));
                assertThat(ex.getMessage()).contains("is banned");
            });
        for (int call = 1; call <= 12; call++) {
            policies.overridden("erin");
        }
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> policies.overridden("erin"))
            .satisfies(ex -> {
                assertThat(ex.getLimit()).isEqualTo(12);
                assertThat(ex.isBanned()).isTrue();
                assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofHours(1));
            });
        policies.windowFromPolicy();
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(policies::windowFromPolicy)
            .satisfies(ex -> assertThat(ex.getRetryAfter()).as("what is left of the policy's hour")
                .isCloseTo(FixedWindows.left(redis.getRequiredConnectionFactory(), Duration.ofHours(1)),
                        Duration.ofSeconds(2)));
    }

    @Test
    void unknownPolicyFailsTheStart() {
        assertStartFails(UnknownPolicy.class, "policy", "UnknownPolicy.call()",
                "policy = 'answer' is not defined; defined policies: [answers, logged, noisy, relaxed]");
    }

    @Test
    void aCallPassesOnlyIfEveryRepeatedLimitAllowsIt() {
        Several several = start(Several.class).getBean(Several.class);
        several.search("ann");
        several.search("ann");
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> several.search("ann"))
            .satisfies(ex -> assertThat(ex.getLimitId()).isEqualTo("Several.search"));
        assertThat(FixedWindows.count(redis, this.prefix + "{Several.search:ann}")).isEqualTo(2);
        assertThat(redis.opsForZSet().zCard(this.prefix + "{Several.search-2:ann}"))
            .as("the rejected call took nothing from the second limit").isEqualTo(2);
        assertThat(several.calls()).isEqualTo(2);
    }

    @Test
    void aCallTakesTheCostItsExpressionGives() {
        Uploads uploads = start(Uploads.class).getBean(Uploads.class);
        uploads.upload("ann", List.of("a", "b", "c"));
        uploads.upload("ann", List.of("d", "e"));
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> uploads.upload("ann", List.of("f")));
        assertThat(FixedWindows.count(redis, this.prefix + "{Uploads.upload:ann}")).isEqualTo(5);
        assertThatIllegalArgumentException().isThrownBy(() -> uploads.upload("bob", List.of("1", "2", "3", "4", "5", "6")))
            .withMessageContaining("cost 6 of a call under 'Uploads.upload' is more than its max of 5");
        uploads.flat("ann");
        assertThat(FixedWindows.count(redis, this.prefix + "{Uploads.flat:ann}")).isEqualTo(2);
    }

    @Test
    void takesTheAlgorithmFromTheAnnotationOrThePolicy() {
        Algorithms algorithms = start(Algorithms.class).getBean(Algorithms.class);
        algorithms.bucket();
        algorithms.fromPolicy();
        assertThat(redis.type(this.prefix + "{Algorithms.bucket}").code()).isEqualTo("hash");
        assertThat(redis.type(this.prefix + "{Algorithms.fromPolicy}").code()).isEqualTo("zset");
    }

    @Test
    void aSlidingLogWhoseKeysWouldPassAMegabyteIsWarnedAboutOnceAtStart() {
        Logger logger = (Logger) LoggerFactory.getLogger(LimitSpecs.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            LargeLogs logs = start(LargeLogs.class).getBean(LargeLogs.class);
            logs.large();
            logs.large();
            logs.small();
        }
        finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list).singleElement().satisfies((event) -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).startsWith("Rate limit 'LargeLogs.large' of LargeLogs.large() is a "
                    + "SLIDING_LOG of max 100000: a key that reaches it holds about 11 MB in Redis, an entry per call")
                .contains("SLIDING_WINDOW counts as smoothly in about 160 bytes a key, whatever the max");
        });
    }

    @Test
    void callsTheFallbackInsteadOfThrowing() {
        WithFallback bean = start(WithFallback.class).getBean(WithFallback.class);
        assertThat(bean.answer("ann")).isEqualTo("answer for ann");
        assertThat(bean.answer("ann")).isEqualTo("busy, ann; retry after PT1M or less");
        assertThat(bean.plain("ann")).isEqualTo("plain");
        assertThat(bean.plain("ann")).isEqualTo("cached for ann");
    }

    @Test
    void aMissingFallbackFailsTheStart() {
        assertStartFails(MissingFallback.class, "fallback", "MissingFallback.call(String)",
                "fallback = 'nope' names no method nope(String) or nope(String, RateLimitExceededException) "
                        + "returning String in MissingFallback");
    }

    @Test
    void aFallbackWithTheWrongReturnTypeFailsTheStart() {
        assertStartFails(WrongFallback.class, "fallback", "WrongFallback.call(String)",
                "fallback = 'number' names no method number(String)");
    }

    @Test
    void aShadowLimitLetsCallsThroughFromTheAnnotationOrThePolicy() {
        Shadowed bean = start(Shadowed.class).getBean(Shadowed.class);
        for (int call = 0; call < 4; call++) {
            bean.trial();
        }
        assertThat(bean.calls()).isEqualTo(4);
    }

    @Test
    void describesEveryResolvedLimit() {
        AnnotationConfigApplicationContext context = start(Several.class, Answers.class);
        assertThat(context.getBean(RateLimitAdvisor.class).limits()).extracting(LimitDescription::limitId,
                LimitDescription::method, LimitDescription::key)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("Answers.answer", "Answers.answer(long, String)", "#userId"),
                    org.assertj.core.groups.Tuple.tuple("Several.search", "Several.search(String)", "#user"),
                    org.assertj.core.groups.Tuple.tuple("Several.search-2", "Several.search(String)", "#user"));
    }

    @Test
    void costAboveMaxFailsTheStart() {
        assertStartFails(CostAboveMax.class, "cost", "CostAboveMax.call()",
                "cost = '6' must be from 0 to max (5): a call that takes more than max could never pass");
    }

    @Test
    void costThatIsNeitherANumberNorSpelFailsTheStart() {
        assertStartFails(BadCost.class, "cost", "BadCost.call()",
                "cost = '#files.size(' is neither a whole number nor a valid SpEL expression");
    }

    @Test
    void twoAlgorithmsFailTheStart() {
        assertStartFails(TwoAlgorithms.class, "algorithm", "TwoAlgorithms.call()",
                "algorithm = '[SLIDING_LOG, TOKEN_BUCKET]' names more than one algorithm");
    }

    @Test
    void twoLimitsWithOneNameFailTheStart() {
        assertStartFails(SameName.class, "name", "SameName.call()",
                "name = 'twice' names two limits of the same method");
    }

    @Test
    void maxTooLargeForTheAlgorithmFailsTheStart() {
        assertStartFails(TooLarge.class, "max", "TooLarge.call()", "max = '100000000000' is too large for PT24H "
                + "with TOKEN_BUCKET: at most 34749997, so that Redis's arithmetic stays exact");
    }

    @Test
    void alertAtNotBelowMaxFailsTheStart() {
        assertStartFails(AlertAtMax.class, "alertAt", "AlertAtMax.call()",
                "alertAt = '5' must be less than max (5)");
    }

    @Test
    void alertAtNotBelowMaxFromAPolicyNamesThePolicyProperty() {
        assertStartFails(NoisyPolicy.class, "alertAt", "NoisyPolicy.call()",
                "alertAt = '5' must be less than max (5): the alert is for calls that are still allowed "
                        + "(from limiter.policies.noisy.alert-at)");
    }

    @Test
    void overridingMaxBelowThePolicysAlertAtFailsTheStart() {
        assertStartFails(MaxBelowPolicyAlert.class, "alertAt", "MaxBelowPolicyAlert.call()",
                "alertAt = '10' must be less than max (2): the alert is for calls that are still allowed "
                        + "(from limiter.policies.answers.alert-at)");
    }

    @Test
    void zeroBanFailsTheStart() {
        assertStartFails(ZeroBan.class, "banFor", "ZeroBan.call()", "banFor = '0s' is under 1 ms");
    }

    @Test
    void unparseableBanFailsTheStart() {
        assertStartFails(BadBan.class, "banFor", "BadBan.call()", "banFor = 'forever' is not a duration");
    }

    @Test
    void policyWithoutMaxAndAnnotationWithoutMaxFailsTheStart() {
        assertStartFails(NoMaxAnywhere.class, "max", "NoMaxAnywhere.call()",
                "max = '-1' is not set; set max to the calls allowed per window (at least 1), here or in "
                        + "limiter.policies.relaxed.max");
    }

    private void assertStartFails(Class<?> bean, String attribute, String method, String message) {
        Throwable failure = catchThrowable(() -> start(bean));
        InvalidRateLimitException invalid = null;
        for (Throwable cause = failure; cause != null && invalid == null; cause = cause.getCause()) {
            invalid = (cause instanceof InvalidRateLimitException ex) ? ex : null;
        }
        assertThat(invalid).as("InvalidRateLimitException in %s", failure).isNotNull();
        assertThat(invalid.getAttribute()).isEqualTo(attribute);
        assertThat(invalid.getMessage()).startsWith("Invalid @RateLimit on ")
            .contains(RateLimitAdvisorIntegrationTests.class.getName() + "$" + method)
            .contains(message);
        // The start failure's own message carries it too, so the log shows it without digging.
        assertThat(failure.getMessage()).contains(message);
    }

    private AnnotationConfigApplicationContext start(Class<?>... beans) {
        this.prefix = "test-" + UUID.randomUUID() + ":";
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", this.properties));
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build());
        context.getBeanFactory().registerSingleton("rateLimiter", limiter);
        context.getBeanFactory().registerSingleton("policies", this.policies);
        context.getBeanFactory().registerSingleton("blankKey", this.blankKey);
        context.getBeanFactory().registerSingleton("defaultPolicy", Optional.ofNullable(this.defaultPolicy));
        context.register(AdvisorConfig.class);
        context.registerBean("tenant", Tenant.class);
        context.register(beans);
        this.context = context;
        context.refresh();
        return context;
    }

    @Configuration(proxyBeanMethods = false)
    static class AdvisorConfig {

        @Bean
        static DefaultAdvisorAutoProxyCreator autoProxyCreator(Environment environment) {
            DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
            creator.setProxyTargetClass(environment.getProperty("test.proxy-target-class", Boolean.class, false));
            return creator;
        }

        @Bean
        @SuppressWarnings("unchecked")
        static RateLimitAdvisor rateLimitAdvisor(BeanFactory beanFactory) {
            return new RateLimitAdvisor(() -> beanFactory.getBean(RateLimiter.class), beanFactory,
                    () -> new RateLimitAdvisor.Settings((Map<String, LimitPolicy>) beanFactory.getBean("policies"),
                            beanFactory.getBean(BlankKey.class), OnFailure.ALLOW,
                            ((Optional<String>) beanFactory.getBean("defaultPolicy")).orElse(null)));
        }

    }

    static class Answers {

        private int calls;

        @RateLimit(key = "#userId", window = "60s", max = 2)
        public String answer(long questionId, String userId) {
            this.calls++;
            return "answer " + questionId;
        }

        public int calls() {
            return this.calls;
        }

    }

    interface Greeter {

        String greet(String user);

    }

    static class PoliteGreeter implements Greeter {

        @Override
        @RateLimit(key = "#user", window = "PT1M", max = 1)
        public String greet(String user) {
            return "hello " + user;
        }

    }

    @RateLimit(window = "1h", max = 1)
    static class Reports {

        public String daily() {
            return "daily";
        }

        public String weekly() {
            return "weekly";
        }

        @RateLimit(window = "1h", max = 5)
        public String unlimited() {
            return "twice";
        }

        @Override
        public String toString() {
            return "Reports";
        }

    }

    record User(String id) {
    }

    record Form(User user) {
    }

    static class Tenant {

        public String name() {
            return "acme";
        }

    }

    static class Keys {

        private int calls;

        @RateLimit(key = "#user", window = "1m", max = 5)
        public void byName(String user) {
            this.calls++;
        }

        public int calls() {
            return this.calls;
        }

        @RateLimit(key = "#form.user.id", window = "1m", max = 5)
        public void nested(Form form) {
        }

        @RateLimit(key = "#p1", window = "1m", max = 5)
        public void byPosition(String first, String second) {
        }

        @RateLimit(key = "#args[1]", window = "1m", max = 5)
        public void byArgs(String first, String second) {
        }

        @RateLimit(key = "#method.name", window = "1m", max = 5)
        public void byMethod() {
        }

        @RateLimit(key = "@tenant.name()", window = "1m", max = 5)
        public void byBean() {
        }

    }

    static class Shared {

        @RateLimit(name = "exports", window = "1m", max = 1)
        public void first() {
        }

        @RateLimit(name = "exports", window = "1m", max = 1)
        public void second() {
        }

    }

    static class BadWindow {

        @RateLimit(key = "#user", window = "soon", max = 1)
        public void call(String user) {
        }

    }

    static class TinyWindow {

        @RateLimit(window = "0ms", max = 1)
        public void call() {
        }

    }

    static class ZeroMax {

        @RateLimit(window = "1s", max = 0)
        public void call() {
        }

    }

    static class NoMax {

        @RateLimit(window = "1s")
        public void call() {
        }

    }

    static class BadKey {

        @RateLimit(key = "#user +", window = "1s", max = 1)
        public void call(String user) {
        }

    }

    static class Placeholders {

        @RateLimit(name = "${answers.name}", key = "#user", window = "${answers.window}", max = 20, alertAt = 10,
                banFor = "${answers.ban:1m}")
        public void answer(String user) {
        }

    }

    static class PrivateLimit {

        @RateLimit(key = "#user", window = "1m", max = 5)
        public void call(String user) {
            helper(user);
        }

        @RateLimit(key = "#user", window = "1m", max = 1)
        private void helper(String user) {
        }

    }

    static class ProtectedLimit {

        @RateLimit(key = "#user", window = "1m", max = 1)
        protected void call(String user) {
        }

    }

    static class StaticLimit {

        @RateLimit(key = "#user", window = "1m", max = 1)
        public static void call(String user) {
        }

    }

    static class FinalLimit {

        @RateLimit(key = "#user", window = "1m", max = 1)
        public final String call(String user) {
            return user;
        }

    }

    static final class FinalClassLimit {

        @RateLimit(key = "#user", window = "1m", max = 1)
        public String call(String user) {
            return user;
        }

    }

    static class FinalGreeter implements Greeter {

        @Override
        @RateLimit(key = "#user", window = "1m", max = 1)
        public final String greet(String user) {
            return "hello " + user;
        }

    }

    static final class FinalClassGreeter implements Greeter {

        @Override
        @RateLimit(key = "#user", window = "1m", max = 1)
        public String greet(String user) {
            return "hello " + user;
        }

    }

    static final Map<String, LimitPolicy> PLANS = Map.of("free",
            new LimitPolicy(null, Duration.ofMinutes(1), 2L, null, null), "pro",
            new LimitPolicy(null, Duration.ofMinutes(1), 5L, null, null));

    record Reader(String id, @Nullable String plan) {
    }

    static class Plans {

        private int calls;

        @RateLimit(name = "reads", policy = "#{#reader.plan}", key = "#reader.id")
        public void read(Reader reader) {
            this.calls++;
        }

        int calls() {
            return this.calls;
        }

    }

    static class PlansWithAlerts {

        @RateLimit(name = "reads", policy = "#{#reader.plan}", key = "#reader.id", alertAt = 3)
        public void read(Reader reader) {
        }

    }

    static class PlansMistyped {

        @RateLimit(name = "reads", policy = "#{#user.plan}", key = "#reader.id")
        public void read(Reader reader) {
        }

    }

    static class MistypedKey {

        @RateLimit(key = "#userid", window = "1m", max = 20)
        public void answer(long questionId, String userId) {
        }

    }

    static class MistypedCost {

        @RateLimit(key = "'uploads'", window = "1m", max = 20, cost = "#file.size()")
        public void upload(List<String> files) {
        }

    }

    static class Policies {

        @RateLimit(policy = "answers", key = "#user")
        public void fromPolicy(String user) {
        }

        @RateLimit(policy = "answers", key = "#user", max = 12, banFor = "1h")
        public void overridden(String user) {
        }

        @RateLimit(policy = "relaxed", max = 1)
        public void windowFromPolicy() {
        }

    }

    static class Several {

        private int calls;

        @RateLimit(key = "#user", window = "1m", max = 2)
        @RateLimit(key = "#user", window = "1h", max = 1000, algorithm = Algorithm.SLIDING_LOG)
        public void search(String user) {
            this.calls++;
        }

        public int calls() {
            return this.calls;
        }

    }

    static class MistypedMethod {

        @RateLimit(key = "#userId.toUppercase()", window = "1m", max = 5)
        public void answer(long questionId, String userId) {
        }

    }

    static class MistypedProperty {

        @RateLimit(key = "#form.user.id", window = "1m", max = 5, cost = "#form.user.name.length()")
        public void login(Form form) {
        }

    }

    static class Unchecked {

        // an Object may be anything at run time: checked when called
        @RateLimit(key = "#value.trim()", window = "1m", max = 5)
        public Object anything(Object value) {
            return value;
        }

    }

    static class Failing {

        private int calls;

        @RateLimit(key = "#user.substring(3)", window = "1m", max = 5)
        public void initials(String user) {
            this.calls++;
        }

        @RateLimit(key = "#user", window = "1m", max = 5, cost = "#files.get(1).length()")
        public void upload(String user, List<String> files) {
            this.calls++;
        }

        public int calls() {
            return this.calls;
        }

    }

    static class Uploads {

        @RateLimit(key = "#user", window = "1m", max = 5, cost = "#files.size()")
        public void upload(String user, List<String> files) {
        }

        @RateLimit(key = "#user", window = "1m", max = 5, cost = "2")
        public void flat(String user) {
        }

    }

    static class Algorithms {

        @RateLimit(window = "1m", max = 5, algorithm = Algorithm.TOKEN_BUCKET)
        public void bucket() {
        }

        @RateLimit(policy = "logged")
        public void fromPolicy() {
        }

    }

    static class LargeLogs {

        @RateLimit(window = "1h", max = 100_000, algorithm = Algorithm.SLIDING_LOG)
        public void large() {
        }

        @RateLimit(window = "1h", max = 1_000, algorithm = Algorithm.SLIDING_LOG)
        public void small() {
        }

    }

    static class WithFallback {

        @RateLimit(key = "#user", window = "1m", max = 1, fallback = "busy")
        public String answer(String user) {
            return "answer for " + user;
        }

        String busy(String user, RateLimitExceededException ex) {
            return "busy, " + user + "; retry after " + (ex.getRetryAfter().compareTo(Duration.ofMinutes(1)) <= 0
                    ? "PT1M or less" : ex.getRetryAfter());
        }

        @RateLimit(key = "#user", window = "1m", max = 1, fallback = "cached")
        public String plain(String user) {
            return "plain";
        }

        public String cached(String user) {
            return "cached for " + user;
        }

    }

    static class MissingFallback {

        @RateLimit(window = "1m", max = 1, fallback = "nope")
        public String call(String user) {
            return user;
        }

    }

    static class WrongFallback {

        @RateLimit(window = "1m", max = 1, fallback = "number")
        public String call(String user) {
            return user;
        }

        public Integer number(String user) {
            return 1;
        }

    }

    static class Shadowed {

        private int calls;

        @RateLimit(window = "1m", max = 1, mode = Limit.Mode.SHADOW)
        public void trial() {
            this.calls++;
        }

        public int calls() {
            return this.calls;
        }

    }

    static class CostAboveMax {

        @RateLimit(window = "1m", max = 5, cost = "6")
        public void call() {
        }

    }

    static class BadCost {

        @RateLimit(window = "1m", max = 5, cost = "#files.size(")
        public void call() {
        }

    }

    static class TwoAlgorithms {

        @RateLimit(window = "1m", max = 5, algorithm = { Algorithm.SLIDING_LOG, Algorithm.TOKEN_BUCKET })
        public void call() {
        }

    }

    static class SameName {

        @RateLimit(name = "twice", window = "1m", max = 5)
        @RateLimit(name = "twice", window = "1h", max = 50)
        public void call() {
        }

    }

    static class TooLarge {

        @RateLimit(window = "1d", max = 100_000_000_000L, algorithm = Algorithm.TOKEN_BUCKET)
        public void call() {
        }

    }

    static class UnknownPolicy {

        @RateLimit(policy = "answer")
        public void call() {
        }

    }

    static class AlertAtMax {

        @RateLimit(window = "1m", max = 5, alertAt = 5)
        public void call() {
        }

    }

    static class NoisyPolicy {

        @RateLimit(policy = "noisy")
        public void call() {
        }

    }

    static class MaxBelowPolicyAlert {

        @RateLimit(policy = "answers", max = 2)
        public void call() {
        }

    }

    static class ZeroBan {

        @RateLimit(window = "1m", max = 5, banFor = "0s")
        public void call() {
        }

    }

    static class BadBan {

        @RateLimit(window = "1m", max = 5, banFor = "forever")
        public void call() {
        }

    }

    static class NoMaxAnywhere {

        @RateLimit(policy = "relaxed")
        public void call() {
        }

    }

    static class BadName {

        @RateLimit(name = "a:b", window = "1s", max = 1)
        public void call() {
        }

    }

}
