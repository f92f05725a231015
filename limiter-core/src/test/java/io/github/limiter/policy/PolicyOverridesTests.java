package io.github.limiter.policy;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimiter;
import io.github.limiter.LimitDescription;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.interceptor.BlankKey;
import io.github.limiter.interceptor.RateLimitAdvisor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;


import static io.github.limiter.policy.RateLimitPolicyChangedEvent.Origin.ANOTHER_INSTANCE;
import static io.github.limiter.policy.RateLimitPolicyChangedEvent.Origin.THIS_INSTANCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What a policy override changes, checked against the limits an advisor resolved: only the values a
 * limit takes from its policy, never one written on its annotation; and an override that does not
 * hold for this instance's limits is refused when set, and not applied when read.
 */
class PolicyOverridesTests {

    private final RateLimitAdvisor advisor = new RateLimitAdvisor(() -> {
        throw new IllegalStateException("no call is made");
    }, null, () -> new RateLimitAdvisor.Settings(Map.of("reads",
            new LimitPolicy(null, Duration.ofMinutes(1), 20L, 10L, Duration.ofMinutes(15))), BlankKey.REJECT,
            OnFailure.ALLOW));

    private final PolicyOverrides overrides = this.advisor.overrides();

    private final List<RateLimitPolicyChangedEvent> events = new ArrayList<>();

    @BeforeEach
    void resolve() {
        // matching resolves the limits, as when the application's beans are created
        for (Method method : Reads.class.getDeclaredMethods()) {
            this.advisor.getPointcut().getMethodMatcher().matches(method, Reads.class);
        }
        assertThat(this.advisor.limits()).hasSize(2);
        this.overrides.addListener(this.events::add);
    }

    @Test
    void anOverrideChangesOnlyWhatALimitTakesFromItsPolicy() {
        List<LimitDescription> limits = this.overrides.check("reads", new PolicyOverride(12L, null, null, null));
        assertThat(limits).extracting((limit) -> limit.limitId() + " " + limit.limit().max())
            .containsExactlyInAnyOrder("reads 12", "fixed 15");

        this.overrides.update(Map.of("reads", new PolicyOverride(12L, Duration.ofSeconds(30), null, null)), THIS_INSTANCE,
                "ops");
        assertThat(this.advisor.limits()).extracting((limit) -> limit.limitId() + " " + limit.limit().max() + " "
                + limit.limit().window() + " " + limit.limit().alertAt() + " " + limit.limit().banFor())
            .containsExactly("fixed 15 PT30S 10 PT15M", "reads 12 PT30S 10 PT15M");
        assertThat(this.events).singleElement().satisfies((event) -> {
            assertThat(event.policy()).isEqualTo("reads");
            assertThat(event.before()).isNull();
            assertThat(event.madeHere()).isTrue();
            assertThat(event.requester()).isEqualTo("ops");
        });

        this.overrides.update(Map.of(), ANOTHER_INSTANCE, null);
        assertThat(this.advisor.limits()).extracting((limit) -> limit.limitId() + " " + limit.limit().max())
            .containsExactly("fixed 15", "reads 20");
        assertThat(this.events).hasSize(2);
        assertThat(this.events.get(1).after()).isNull();
        assertThat(this.events.get(1).madeHere()).isFalse();
        assertThat(this.events.get(1).requester()).isNull();
    }

    @Test
    void aChangeMadeHereNamesWhoAskedEscapedAsAKey() {
        List<ILoggingEvent> logged = logged(() -> {
            // a name comes from a client as a key does: it must not start a line of its own
            this.overrides.update(Map.of("reads", new PolicyOverride(12L, null, null, null)), THIS_INSTANCE,
                    "mallory\r\nINFO forged");
            this.overrides.update(Map.of(), THIS_INSTANCE, null);
        });
        assertThat(logged).extracting(ILoggingEvent::getFormattedMessage)
            .satisfiesExactly(
                    (line) -> assertThat(line).startsWith("Rate limit policy 'reads' is overridden by "
                            + "'mallory\\r\\nINFO forged' on this instance: max=12. Its limits now: "),
                    (line) -> assertThat(line).startsWith("Rate limit policy 'reads' is back to its configured values "
                            + "(override max=12 removed on this instance)."));
    }

    @Test
    void anOverrideThatBreaksALimitIsRefusedNamingTheLimit() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.overrides.check("reads", new PolicyOverride(null, null, 16L, null)))
            .withMessage("Policy 'reads' cannot take alert-at=16: limit 'fixed' of Reads.fixed(String) would have "
                    + "alert-at 16, which must be less than max (15): the alert is for calls that are still allowed");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.overrides.check("reads", new PolicyOverride(1L, null, null, null)))
            .withMessageContaining("alert-at 10, which must be less than max (1)");
    }

    @Test
    void anOverrideReadFromRedisThatDoesNotHoldHereIsLoggedAndNotApplied() {
        List<ILoggingEvent> logged = logged(() -> {
            this.overrides.update(Map.of("reads", new PolicyOverride(null, null, 16L, null)), ANOTHER_INSTANCE, null);
            assertThat(this.overrides.current()).isEmpty();
            assertThat(this.events).isEmpty();

            this.overrides.update(Map.of("reads", new PolicyOverride(18L, null, null, null)), ANOTHER_INSTANCE, null);
            this.overrides.update(Map.of("reads", new PolicyOverride(18L, null, 16L, null)), ANOTHER_INSTANCE, null);
            assertThat(this.overrides.current()).as("keeps the override before")
                .containsEntry("reads", new PolicyOverride(18L, null, null, null));
        });
        assertThat(logged).filteredOn((event) -> event.getLevel() == Level.ERROR)
            .extracting(ILoggingEvent::getFormattedMessage)
            .satisfiesExactly(
                    (line) -> assertThat(line).startsWith("Rate limit policy override not applied on this instance: "
                            + "Policy 'reads' cannot take alert-at=16: limit 'fixed' of Reads.fixed(String) would "
                            + "have alert-at 16").endsWith("the policy keeps its configured values"),
                    (line) -> assertThat(line).endsWith("the policy keeps its previous override max=18"));
    }

    /** What {@link PolicyOverrides} logs while {@code work} runs, from INFO up (the tests' root level is WARN). */
    private static List<ILoggingEvent> logged(Runnable work) {
        Logger logger = (Logger) LoggerFactory.getLogger(PolicyOverrides.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        Level level = logger.getLevel();
        logger.setLevel(Level.INFO);
        try {
            work.run();
        }
        finally {
            logger.setLevel(level);
            logger.detachAppender(logged);
        }
        return logged.list;
    }

    static class Reads {

        @RateLimit(name = "reads", policy = "reads", key = "#user")
        public void read(String user) {
        }

        @RateLimit(name = "fixed", policy = "reads", key = "#user", max = 15)
        public void fixed(String user) {
        }

    }

}
