package io.github.limiter.overrides;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.github.limiter.Limit;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.policy.RateLimitPolicyChangedEvent;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.redis.RedisPolicyOverrides;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.FixedWindows;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Policies changed while two instances run on one Redis, one of which started while Redis was down:
 * each change applies at once where it is made, and on the other instance as soon as it hears the
 * change announced. The instance that started while Redis was down (B) reads the overrides only
 * every 10 minutes, so what it applies it heard; a third instance that does not subscribe (its
 * local cache is off) applies changes within its poll interval instead. Counts and bans in force
 * are kept, an override can be removed, invalid changes are refused with a
 * message that names the value and the rule, and a configuration refresh (Spring Cloud's
 * {@link EnvironmentChangeEvent}) changes a policy the same way.
 */
@ExtendWith(OutputCaptureExtension.class)
class PolicyOverridesIntegrationTests {

    /** The poll interval of A, and of the instance that does not subscribe. */
    private static final Duration POLL = Duration.ofMillis(200);

    /** The poll interval of B: longer than the test, so that B applies what it hears announced. */
    private static final Duration RARELY = Duration.ofMinutes(10);

    /**
     * How long an instance may take to apply a change: an announcement is heard within
     * milliseconds, and the docs' bound for an instance that misses it is one poll interval plus a
     * Redis round trip; checked with room for a busy two-core CI machine (a GC pause, a late
     * scheduled poll), and the time taken is printed.
     */
    private static final Duration BOUND = Duration.ofSeconds(2);

    /** Who asks for the changes these tests make, as an operator through the endpoint would. */
    private static final String OPS = "ops";

    private static EmbeddedRedis redis;

    private static ConfigurableApplicationContext a;

    private static ConfigurableApplicationContext b;

    private static int port;

    private static String prefix;

    @BeforeAll
    static void startBWhileRedisIsDownThenRedisThenA() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        prefix = "overrides-" + UUID.randomUUID() + ":";
        b = start(RARELY);
        redis = EmbeddedRedis.start(port);
        a = start(POLL);
        // B's first read failed and its next poll is 10 minutes away: it reads when it subscribes
        await(Duration.ofSeconds(10), "B reads the overrides once Redis is up",
                () -> b.getBean(RedisPolicyOverrides.class).isReading());
        await(Duration.ofSeconds(10), "B hears the other instances",
                () -> b.getBean(RedisRateLimiter.class).health().hearsOtherInstances());
    }

    /**
     * The policies' windows are minutes of Redis's clock: a test that counts calls, changes a
     * policy and counts on, for up to a few of its bounds, must not meet a minute's end.
     */
    @BeforeEach
    void roomInTheMinute() {
        FixedWindows.awaitRoom(a.getBean(RedisConnectionFactory.class), Duration.ofMinutes(1), Duration.ofSeconds(5));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] { a, b, redis }) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }
    }

    @AfterEach
    void removeOverrides() {
        for (String policy : List.of("answers", "searches", "free", "pro")) {
            store(a).remove(policy, OPS);
        }
        await(BOUND, "B back to the configured policies",
                () -> b.getBean(RateLimitAdvisor.class).overrides().current().isEmpty());
    }

    private static ConfigurableApplicationContext start(Duration pollInterval, String... more) {
        return start(port, prefix, pollInterval, more);
    }

    private static ConfigurableApplicationContext start(int port, String prefix, Duration pollInterval,
            String... more) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        List<String> args = new ArrayList<>(List.of(more));
        args.addAll(List.of("--spring.main.banner-mode=off", "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + port, "--limiter.key-prefix=" + prefix,
                "--limiter.policy-overrides.poll-interval=" + pollInterval.toMillis() + "ms",
                "--limiter.policies.answers.window=1m", "--limiter.policies.answers.max=20",
                "--limiter.policies.answers.alert-at=10", "--limiter.policies.answers.ban-for=10m",
                "--limiter.policies.searches.window=1m", "--limiter.policies.searches.max=20",
                "--limiter.policies.searches.alert-at=10", "--limiter.policies.free.window=1m", "--limiter.policies.free.max=3",
                "--limiter.policies.pro.window=1m", "--limiter.policies.pro.max=6",
                "--limiter.policies.partner.limits[0].window=1s", "--limiter.policies.partner.limits[0].max=10",
                "--limiter.policies.partner.limits[1].window=1h", "--limiter.policies.partner.limits[1].max=1000"));
        return application.run(args.toArray(String[]::new));
    }

    @Test
    void aLowerMaxRefusesAKeyAlreadyPastItAtOnceOnBothInstancesAndAHigherOneLetsItGoOn(CapturedOutput output) {
        String user = user();
        for (int call = 1; call <= 7; call++) {
            assertThat(search(((call % 2) == 0) ? b : a, user)).as("call " + call + " under max 20").isTrue();
        }

        // alert-at 10 is not below 5: it changes with max
        store(a).set("searches", new PolicyOverride(5L, null, 3L, null), OPS);
        assertThat(search(a, user)).as("on A, at once: the key is at 7, past the new max 5").isFalse();
        Duration seen = await(BOUND, "B applies max 5", () -> searchMaxOf(b) == 5);
        assertThat(search(b, user)).as("on B").isFalse();
        assertThat(limiter(a).state("searches", user, limit(a, "searches")).count()).as("the count is kept").isEqualTo(7);

        store(b).set("searches", new PolicyOverride(30L, null, null, null), OPS);
        await(BOUND, "A applies max 30", () -> searchMaxOf(a) == 30);
        assertThat(search(a, user)).as("max 30 lets the key go on").isTrue();
        assertThat(search(b, user)).isTrue();
        assertThat(limiter(b).state("searches", user, limit(b, "searches")).count()).as("counted on from 7").isEqualTo(9);

        // the event follows the change it tells of
        await(BOUND, "both instances published both changes",
                () -> searchEvents(a).size() == 2 && searchEvents(b).size() == 2);
        assertThat(searchEvents(a)).extracting(RateLimitPolicyChangedEvent::madeHere).containsExactly(true, false);
        assertThat(searchEvents(b)).extracting(RateLimitPolicyChangedEvent::madeHere).containsExactly(false, true);
        assertThat(searchEvents(a).get(0).after()).isEqualTo(new PolicyOverride(5L, null, 3L, null));
        assertThat(searchEvents(a).get(1).after()).as("keeps alert-at 3").isEqualTo(new PolicyOverride(30L, null, 3L, null));
        // the limit of search(), and the variant of planned() for a call that chooses "searches"
        assertThat(searchEvents(a).get(0).limits()).extracting((limit) -> limit.limitId() + " " + limit.limit().max())
            .containsExactlyInAnyOrder("searches 5", "plans.searches 5");
        assertThat(output.getOut()).contains("Rate limit policy 'searches' is overridden by 'ops' on this instance: max=5, alert-at=3.",
                "Rate limit policy 'searches' is overridden by another instance (read from Redis): max=5, alert-at=3.",
                "Its limits now: plans.searches: 5 per PT1M, alert past 3; searches: 5 per PT1M, alert past 3.");
        System.out.println("B applied the change made on A in " + seen.toMillis() + " ms, as it heard it (poll "
                + "interval " + RARELY.toMinutes() + " minutes)");

        assertThat(store(a).remove("searches", OPS)).isTrue();
        await(BOUND, "B is back to the configured max", () -> searchMaxOf(b) == 20);
        assertThat(searchMaxOf(a)).isEqualTo(20);
        await(BOUND, "B published the removal", () -> searchEvents(b).size() == 3);
        assertThat(searchEvents(b).get(2).after()).as("removed").isNull();
        // who asked is named where the change was made; the other instance read it from Redis
        assertThat(output.getOut()).contains("Rate limit policy 'searches' is back to its configured values "
                + "(override max=30, alert-at=3 removed by 'ops' on this instance)",
                "Rate limit policy 'searches' is back to its configured values (override max=30, alert-at=3 removed "
                        + "by another instance (read from Redis))");
    }

    @Test
    void anInstanceThatDoesNotHearAnnouncementsAppliesAChangeWithinItsPollInterval() {
        // C keeps no memory of refusals, so it subscribes to nothing: it reads every 200 ms
        try (ConfigurableApplicationContext c = start(POLL, "--limiter.local-cache.enabled=false")) {
            assertThat(c.getBean(RedisRateLimiter.class).health().subscribes()).isFalse();
            await(Duration.ofSeconds(10), "C has read the overrides once",
                    () -> c.getBean(RedisPolicyOverrides.class).isReading() && searchMaxOf(c) == 20);

            store(a).set("searches", new PolicyOverride(6L, null, 5L, null), OPS);
            Duration seen = await(BOUND, "C applies max 6", () -> searchMaxOf(c) == 6);
            System.out.println("C, which does not subscribe, applied the change made on A in " + seen.toMillis()
                    + " ms (poll interval " + POLL.toMillis() + " ms)");

            store(b).remove("searches", OPS);
            await(BOUND, "C is back to the configured max", () -> searchMaxOf(c) == 20);
            await(BOUND, "A is back to the configured max", () -> searchMaxOf(a) == 20);
        }
    }

    @Test
    void anInstanceThatCouldNotReadTriesAgainWithinASecondNotAtItsNextPoll() throws Exception {
        // its own Redis, down when it starts; it polls every 10 minutes and subscribes to nothing
        int otherPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            otherPort = socket.getLocalPort();
        }
        String otherPrefix = "overrides-retry-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext d = start(otherPort, otherPrefix, RARELY,
                "--limiter.local-cache.enabled=false")) {
            await(Duration.ofSeconds(5), "D's first read fails: Redis is down",
                    () -> !d.getBean(RedisPolicyOverrides.class).isReading());
            try (EmbeddedRedis other = EmbeddedRedis.start(otherPort)) {
                Duration caughtUp = await(Duration.ofSeconds(5), "D reads the overrides once Redis is up",
                        () -> d.getBean(RedisPolicyOverrides.class).isReading());
                System.out.println("D, polling every 10 minutes, read the overrides " + caughtUp.toMillis()
                        + " ms after its Redis started");
            }
        }
    }

    @Test
    void aBanInForceIsKeptThroughAChangeOfMaxAndBanFor() {
        String user = user();
        for (int call = 1; call <= 20; call++) {
            assertThat(read(a, user)).isTrue();
        }
        assertThat(read(a, user)).as("the 21st call is banned").isFalse();
        assertThat(limiter(a).isBanned("answers", user)).isTrue();
        store(a).set("answers", new PolicyOverride(50L, null, null, Duration.ofMinutes(1)), OPS);
        await(BOUND, "B applies max 50", () -> maxOf(b) == 50);
        assertThat(read(b, user)).as("still banned on B, under max 50").isFalse();
        assertThat(read(a, user)).as("and on A").isFalse();
        assertThat(limiter(a).banTimeLeft("answers", user)).as("the ban keeps its length")
            .isGreaterThan(Duration.ofMinutes(9));
        store(a).remove("answers", OPS);
        await(BOUND, "B is back to the configured max", () -> maxOf(b) == 20);
    }

    @Test
    void invalidChangesAreRefusedWithTheValueAndTheRuleAndChangeNothing() {
        RedisPolicyOverrides store = store(a);
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.set("answers", new PolicyOverride(null, Duration.ofNanos(500_000), null, null),
                    OPS))
            .withMessageContaining("Policy 'answers' would have window PT0.0005S")
            .withMessageContaining("at least 1ms");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.set("answers", new PolicyOverride(null, null, 25L, null), OPS))
            .withMessage("Policy 'answers' would have alert-at 25, which must be less than max (20): the alert is for "
                    + "calls that are still allowed (override: alert-at=25)");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.set("answers", new PolicyOverride(8L, null, null, null), OPS))
            .withMessageContaining("alert-at 10, which must be less than max (8)");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.set("answers", new PolicyOverride(0L, null, null, null), OPS))
            .withMessageContaining("max 0, which must be at least 1");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.set("gold", new PolicyOverride(8L, null, null, null), OPS))
            .withMessage("No rate limit policy 'gold'; defined policies: [answers, free, partner.0, partner.1, pro, searches]");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.set("answers", PolicyOverride.NONE, OPS))
            .withMessageContaining("sets none of max, window, alert-at and ban-for");
        assertThat(store.read()).as("nothing written").doesNotContainKey("answers").doesNotContainKey("gold");
        assertThat(maxOf(a)).isEqualTo(20);
    }

    @Test
    void eachPlanHasItsOwnLimitOnEveryInstanceAndAPlanCanBeChangedLive() {
        String user = user();
        for (int call = 1; call <= 3; call++) {
            assertThat(plan(((call % 2) == 0) ? b : a, "free", user)).isTrue();
        }
        assertThat(plan(b, "free", user)).as("free allows 3 a minute, on every instance").isFalse();
        for (int call = 1; call <= 6; call++) {
            assertThat(plan(a, "pro", user)).as("pro counts apart: call " + call).isTrue();
        }
        assertThat(plan(b, "pro", user)).isFalse();

        store(b).set("free", new PolicyOverride(4L, null, null, null), OPS);
        await(BOUND, "A applies free max 4", () -> a.getBean(RateLimitAdvisor.class).overrides().current()
            .containsKey("free"));
        assertThat(plan(a, "free", user)).as("one more for free users").isTrue();
        assertThat(plan(a, "free", user)).isFalse();
        assertThat(plan(a, "pro", user)).as("pro is untouched").isFalse();
        store(b).remove("free", OPS);
        await(BOUND, "A is back", () -> !a.getBean(RateLimitAdvisor.class).overrides().current().containsKey("free"));
    }

    @Test
    void overridesRedisLostAreLoggedAsLostAndNotAsRemovedByAnotherInstance(CapturedOutput output) {
        int seenOnA = events(a).size();
        int seenOnB = events(b).size();
        store(a).set("free", new PolicyOverride(4L, null, null, null), OPS);
        store(a).set("pro", new PolicyOverride(8L, null, null, null), OPS);
        assertThat(awaitEvents(b, seenOnB, 2)).containsExactlyInAnyOrder("free ANOTHER_INSTANCE max=4",
                "pro ANOTHER_INSTANCE max=8");
        seenOnA = events(a).size();
        seenOnB = events(b).size();

        // what a restart without persistence leaves: no hash at all
        redis.withCommands((commands) -> commands.flushall());
        // B reads every 10 minutes: this is its next read; A reads every 200 ms
        store(b).refresh();
        assertThat(awaitEvents(b, seenOnB, 2)).containsExactlyInAnyOrder("free LOST none", "pro LOST none");
        assertThat(awaitEvents(a, seenOnA, 2)).containsExactlyInAnyOrder("free LOST none", "pro LOST none");
        assertThat(b.getBean(RateLimitAdvisor.class).overrides().current()).isEmpty();
        assertThat(a.getBean(RateLimitAdvisor.class).overrides().current()).isEmpty();
        assertThat(output.getOut()).contains("WARN", "Rate limit policy overrides were lost from Redis (it restarted "
                + "without persistence, was flushed, or evicted " + prefix + "policy-overrides): policies free, pro "
                + "are back to their configured values",
                "Rate limit policy 'free' is back to its configured values (override max=4 lost from Redis).")
            .doesNotContain("override max=4 removed by another instance", "override max=8 removed by another instance");

        // lost, then written again before B read: what B no longer finds was lost, what it finds is new
        seenOnB = events(b).size();
        store(a).set("free", new PolicyOverride(5L, null, null, null), OPS);
        assertThat(awaitEvents(b, seenOnB, 1)).containsExactly("free ANOTHER_INSTANCE max=5");
        seenOnB = events(b).size();
        redis.withCommands((commands) -> commands.flushall());
        store(a).set("pro", new PolicyOverride(9L, null, null, null), OPS);
        assertThat(awaitEvents(b, seenOnB, 2)).containsExactly("free LOST none", "pro ANOTHER_INSTANCE max=9");
        assertThat(output.getOut()).contains("policy free is back to its configured values");
    }

    @Test
    void aConfigurationRefreshChangesAPolicyOnEveryInstanceAndARefreshBackRemovesIt() {
        MapPropertySource refreshed = new MapPropertySource("refreshed",
                new java.util.HashMap<>(Map.of("limiter.policies.answers.max", "40")));
        a.getEnvironment().getPropertySources().addFirst(refreshed);
        try {
            a.publishEvent(new EnvironmentChangeEvent(a, Set.of("limiter.policies.answers.max")));
            assertThat(maxOf(a)).as("at once where refreshed").isEqualTo(40);
            await(BOUND, "B applies the refreshed max", () -> maxOf(b) == 40);

            refreshed.getSource().put("limiter.policies.answers.max", "20");
            a.publishEvent(new EnvironmentChangeEvent(a, Set.of("limiter.policies.answers.max")));
            assertThat(a.getBean(RateLimitAdvisor.class).overrides().current()).as("back to the configuration")
                .doesNotContainKey("answers");
            await(BOUND, "B is back", () -> maxOf(b) == 20);
        }
        finally {
            a.getEnvironment().getPropertySources().remove("refreshed");
        }
    }

    @Test
    void aRefreshOfOneOfAPolicysSeveralLimitsOverridesThatLimitOnEveryInstance() {
        // Spring Boot binds a list from one property source: the refreshed one has all of it
        MapPropertySource refreshed = new MapPropertySource("refreshed", new java.util.HashMap<>(Map.of(
                "limiter.policies.partner.limits[0].window", "1s", "limiter.policies.partner.limits[0].max", "10",
                "limiter.policies.partner.limits[1].window", "1h", "limiter.policies.partner.limits[1].max", "500")));
        a.getEnvironment().getPropertySources().addFirst(refreshed);
        try {
            a.publishEvent(new EnvironmentChangeEvent(a, Set.of("limiter.policies.partner.limits[1].max")));
            assertThat(a.getBean(RateLimitAdvisor.class).overrides().current()).as("at once where refreshed")
                .containsOnlyKeys("partner.1")
                .hasEntrySatisfying("partner.1", (override) -> assertThat(override.max()).isEqualTo(500));
            await(BOUND, "B applies the refreshed limit",
                    () -> b.getBean(RateLimitAdvisor.class).overrides().current().containsKey("partner.1"));
        }
        finally {
            a.getEnvironment().getPropertySources().remove("refreshed");
            store(a).remove("partner.1", OPS);
        }
        await(BOUND, "B back to the configured limit",
                () -> !b.getBean(RateLimitAdvisor.class).overrides().current().containsKey("partner.1"));
    }

    private static boolean read(ConfigurableApplicationContext instance, String user) {
        try {
            instance.getBean(Answers.class).read(user);
            return true;
        }
        catch (RateLimitExceededException ex) {
            return false;
        }
    }

    private static boolean search(ConfigurableApplicationContext instance, String user) {
        try {
            instance.getBean(Answers.class).search(user);
            return true;
        }
        catch (RateLimitExceededException ex) {
            return false;
        }
    }

    private static boolean plan(ConfigurableApplicationContext instance, String plan, String user) {
        try {
            instance.getBean(Answers.class).planned(plan, user);
            return true;
        }
        catch (RateLimitExceededException ex) {
            return false;
        }
    }

    private static long maxOf(ConfigurableApplicationContext instance) {
        return limit(instance, "answers").max();
    }

    private static long searchMaxOf(ConfigurableApplicationContext instance) {
        return limit(instance, "searches").max();
    }

    private static Limit limit(ConfigurableApplicationContext instance, String limitId) {
        return instance.getBean(RateLimitAdvisor.class)
            .limits()
            .stream()
            .filter((limit) -> limit.limitId().equals(limitId))
            .findFirst()
            .orElseThrow()
            .limit();
    }

    private static RedisPolicyOverrides store(ConfigurableApplicationContext instance) {
        return instance.getBean(RedisPolicyOverrides.class);
    }

    private static RateLimitAdmin limiter(ConfigurableApplicationContext instance) {
        return instance.getBean(RateLimitAdmin.class);
    }

    private static List<RateLimitPolicyChangedEvent> events(ConfigurableApplicationContext instance) {
        return instance.getBean(App.class).events;
    }

    /**
     * Awaits {@code count} events of an instance after the first {@code from} (an event follows the
     * change it tells of), and returns each one's policy, origin and override after.
     */
    private static List<String> awaitEvents(ConfigurableApplicationContext instance, int from, int count) {
        await(BOUND, count + " events", () -> events(instance).size() >= from + count);
        return events(instance).subList(from, events(instance).size())
            .stream()
            .map((event) -> event.policy() + " " + event.origin() + " "
                    + ((event.after() != null) ? event.after().describe() : "none"))
            .toList();
    }

    /** This instance's events about "searches", which only the first test changes. */
    private static List<RateLimitPolicyChangedEvent> searchEvents(ConfigurableApplicationContext instance) {
        return events(instance).stream().filter((event) -> event.policy().equals("searches")).toList();
    }

    private static String user() {
        return "user-" + UUID.randomUUID();
    }

    private static Duration await(Duration within, String what, BooleanSupplier condition) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > within.toNanos()) {
                throw new AssertionError("Not within " + within.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Answers.class)
    static class App {

        final List<RateLimitPolicyChangedEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        void changed(RateLimitPolicyChangedEvent event) {
            this.events.add(event);
        }

    }

    static class Answers {

        @RateLimit(name = "answers", policy = "answers", key = "#user")
        public void read(String user) {
        }

        // no ban: a key past max is refused until its window ends
        @RateLimit(name = "searches", policy = "searches", key = "#user")
        public void search(String user) {
        }

        @RateLimit(name = "plans", policy = "#{#plan}", key = "#user")
        public void planned(String plan, String user) {
        }

    }

}
