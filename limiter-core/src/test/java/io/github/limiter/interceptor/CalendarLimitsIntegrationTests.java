package io.github.limiter.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisClock;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.LimitDescription;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.policy.PolicyOverrides;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code @RateLimit(calendar = ..., zone = ...)}: a zone chosen per call by SpEL counts each call in
 * its own zone's period, a policy gives its calendar and zone, and what cannot work fails the start
 * with a message naming the attribute and its value.
 */
@WithRedis
class CalendarLimitsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "calendar-" + UUID.randomUUID() + ":";

    private Map<String, LimitPolicy> policies = Map.of();

    private AnnotationConfigApplicationContext context;

    @AfterEach
    void close() {
        if (this.context != null) {
            this.context.close();
        }
    }

    @Test
    void aZoneChosenPerCallCountsEachCallInItsZonesDay() {
        Quotas quotas = start(Quotas.class).getBean(Quotas.class);
        // the day ends at 10:00 UTC in +14:00 and at 12:00 UTC in -12:00: never at the same time
        Customer east = new Customer("east", ZoneOffset.ofHours(14));
        Customer west = new Customer("west", ZoneOffset.ofHours(-12));
        for (Customer customer : new Customer[] { east, west }) {
            quotas.daily(customer);
            quotas.daily(customer);
            long before = redisMillis();
            RateLimitExceededException refused = catchThrowableOfType(() -> quotas.daily(customer));
            long after = redisMillis();
            long end = CalendarWindow.DAY.end(Instant.ofEpochMilli(before), customer.zone()).toEpochMilli();
            assertThat(refused.getRetryAfter().toMillis()).as("%s retries when its own day ends", customer.id())
                .isBetween(end - after, end - before);
        }
        assertThat(quotas.calls()).isEqualTo(4);
    }

    @Test
    void aZoneExpressionMayGiveATimeZoneOrAZoneIdsText() {
        Quotas quotas = start(Quotas.class).getBean(Quotas.class);
        quotas.byTimeZone("tz", TimeZone.getTimeZone("Asia/Tokyo"));
        quotas.byText("text", "Asia/Tokyo");
        assertThat(redis.hasKey(this.prefix + "{Quotas.byTimeZone:tz}")).isTrue();
        assertThat(redis.hasKey(this.prefix + "{Quotas.byText:text}")).isTrue();
    }

    @Test
    void aZoneExpressionThatGivesNoZoneRefusesTheCallWithoutCountingIt() {
        Quotas quotas = start(Quotas.class).getBean(Quotas.class);
        assertThatIllegalArgumentException().isThrownBy(() -> quotas.byText("mars", "Mars/Olympus_Mons"))
            .withMessageStartingWith("Rate limit zone '#zone' of Quotas.byText gave 'Mars/Olympus_Mons', which is not "
                    + "a zone id")
            .withMessageEndingWith("the call is refused, as its calendar period is unknown");
        assertThatIllegalArgumentException().isThrownBy(() -> quotas.byText("nobody", null))
            .withMessage("Rate limit zone '#zone' of Quotas.byText gave null: the call is refused, as its calendar "
                    + "period is unknown");
        assertThat(redis.hasKey(this.prefix + "{Quotas.byText:mars}")).isFalse();
    }

    @Test
    void aPolicyGivesItsCalendarAndZone() {
        this.policies = Map.of("monthly", new LimitPolicy(null, null, 1_000L, null, null, null, null,
                CalendarWindow.MONTH, "Europe/Berlin"));
        start(Monthly.class);
        LimitDescription described = this.context.getBean(RateLimitAdvisor.class).limits().get(0);
        assertThat(described.limit())
            .isEqualTo(Limit.of(1_000, CalendarWindow.MONTH, ZoneId.of("Europe/Berlin")));
    }

    @Test
    void aCalendarPolicysMaxCanBeOverriddenButNotItsWindow() {
        this.policies = Map.of("monthly", new LimitPolicy(null, null, 1_000L, null, null, null, null,
                CalendarWindow.MONTH, "Europe/Berlin"));
        start(Monthly.class);
        PolicyOverrides overrides = this.context.getBean(RateLimitAdvisor.class).overrides();
        assertThat(overrides.check("monthly", new PolicyOverride(2_000L, null, null, null)))
            .singleElement()
            .satisfies((described) -> assertThat(described.limit())
                .isEqualTo(Limit.of(2_000, CalendarWindow.MONTH, ZoneId.of("Europe/Berlin"))));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> overrides.check("monthly", new PolicyOverride(null, Duration.ofDays(1), null, null)))
            .withMessageStartingWith("Policy 'monthly' counts calendar MONTH periods and cannot take window PT24H");
    }

    @Test
    void aCalendarWithAWindowFailsTheStart() {
        assertStartFails(CalendarAndWindow.class, "calendar", "MONTH",
                "excludes window (30d): a calendar limit counts calendar periods, not windows of one length");
    }

    @Test
    void aCalendarAndAWindowBothInThePolicyFailTheStart() {
        this.policies = Map.of("both", new LimitPolicy(null, Duration.ofDays(1), 5L, null, null, null, null,
                CalendarWindow.DAY, null));
        assertStartFails(Both.class, "calendar", "DAY", "(both from limiter.policies.both)");
    }

    @Test
    void aCalendarCountedByAnotherAlgorithmFailsTheStart() {
        assertStartFails(CalendarBySlidingLog.class, "algorithm", "SLIDING_LOG",
                "cannot count calendar DAY periods: a calendar limit is a fixed window by nature");
    }

    @Test
    void aZoneThatIsNoZoneIdFailsTheStart() {
        assertStartFails(MistypedZone.class, "zone", "Europe/Berln", "is not a zone id");
    }

    @Test
    void aZoneWithoutCalendarFailsTheStart() {
        assertStartFails(ZoneWithoutCalendar.class, "zone", "Europe/Berlin", "needs a calendar");
    }

    @Test
    void aZoneExpressionReadingNoParameterFailsTheStart() {
        assertStartFails(ZoneOfNoParameter.class, "zone", "#customer.zone()",
                "reads #customer, which is neither a parameter of the method");
    }

    private void assertStartFails(Class<?> bean, String attribute, String value, String message) {
        Throwable failure = catchThrowable(() -> start(bean));
        InvalidRateLimitException invalid = null;
        for (Throwable cause = failure; cause != null && invalid == null; cause = cause.getCause()) {
            invalid = (cause instanceof InvalidRateLimitException ex) ? ex : null;
        }
        assertThat(invalid).as("InvalidRateLimitException in %s", failure).isNotNull();
        assertThat(invalid.getAttribute()).isEqualTo(attribute);
        assertThat(invalid.getMessage()).startsWith("Invalid @RateLimit on ")
            .contains(bean.getSimpleName(), attribute, value, message);
    }

    private AnnotationConfigApplicationContext start(Class<?> bean) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build());
        context.getBeanFactory().registerSingleton("rateLimiter", limiter);
        context.getBeanFactory().registerSingleton("policies", this.policies);
        context.getBeanFactory().registerSingleton("blankKey", BlankKey.REJECT);
        context.getBeanFactory().registerSingleton("defaultPolicy", Optional.empty());
        context.register(RateLimitAdvisorIntegrationTests.AdvisorConfig.class, bean);
        this.context = context;
        context.refresh();
        return context;
    }

    private static RateLimitExceededException catchThrowableOfType(Runnable call) {
        Throwable thrown = catchThrowable(call::run);
        assertThat(thrown).isInstanceOf(RateLimitExceededException.class);
        return (RateLimitExceededException) thrown;
    }

    private static long redisMillis() {
        return RedisClock.millis(redis);
    }

    record Customer(String id, ZoneId zone) {

    }

    static class Quotas {

        private int calls;

        @RateLimit(key = "#customer.id()", max = 2, calendar = CalendarWindow.DAY, zone = "#customer.zone()")
        public void daily(Customer customer) {
            this.calls++;
        }

        @RateLimit(key = "#key", max = 2, calendar = CalendarWindow.MONTH, zone = "#zone")
        public void byTimeZone(String key, TimeZone zone) {
        }

        @RateLimit(key = "#key", max = 2, calendar = CalendarWindow.MONTH, zone = "#zone")
        public void byText(String key, String zone) {
        }

        public int calls() {
            return this.calls;
        }

    }

    static class Monthly {

        @RateLimit(policy = "monthly")
        public void call() {
        }

    }

    static class Both {

        @RateLimit(policy = "both")
        public void call() {
        }

    }

    static class CalendarAndWindow {

        @RateLimit(window = "30d", max = 5, calendar = CalendarWindow.MONTH)
        public void call() {
        }

    }

    static class CalendarBySlidingLog {

        @RateLimit(max = 5, calendar = CalendarWindow.DAY, algorithm = Algorithm.SLIDING_LOG)
        public void call() {
        }

    }

    static class MistypedZone {

        @RateLimit(max = 5, calendar = CalendarWindow.MONTH, zone = "Europe/Berln")
        public void call() {
        }

    }

    static class ZoneWithoutCalendar {

        @RateLimit(window = "1d", max = 5, zone = "Europe/Berlin")
        public void call() {
        }

    }

    static class ZoneOfNoParameter {

        @RateLimit(max = 5, calendar = CalendarWindow.MONTH, zone = "#customer.zone()")
        public void call(String user) {
        }

    }

}
