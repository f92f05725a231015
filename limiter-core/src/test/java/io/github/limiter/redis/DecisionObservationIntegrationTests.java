package io.github.limiter.redis;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.observation.DecisionObservationContext;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.WithRedis;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.tracing.LettuceObservationContext;
import io.lettuce.core.tracing.MicrometerTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each decision is one observation, {@code limiter.decision}, with its limit and outcome, and the
 * Redis client's own observation of the script call (Lettuce's {@link MicrometerTracing}, as Spring
 * Boot sets it up) happens inside it, as its child: blocking and non-blocking, refused from memory,
 * and failed.
 */
@WithRedis
class DecisionObservationIntegrationTests {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @AutoClose
    private final Closer closing = new Closer();

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    // every observation's start and stop, in order, with its context
    private final List<Event> events = new CopyOnWriteArrayList<>();

    private final String prefix = "observed-" + UUID.randomUUID() + ":";

    private ClientResources resources;

    private LettuceConnectionFactory factory;

    @AfterEach
    void stop() {
        if (this.factory != null) {
            this.factory.destroy();
        }
        if (this.resources != null) {
            this.resources.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBlockingDecisionIsOneObservationAroundItsScriptCall(EmbeddedRedis redis) {
        RedisRateLimiter limiter = limiter(redis.host(), redis.port(), true);
        Limit one = Limit.of(1, Duration.ofMinutes(1));

        assertThat(limiter.tryAcquire("answers", "alice", one).allowed()).isTrue();

        assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 1)
            .hasObservationWithNameEqualTo("limiter.decision")
            .that()
            .hasContextualNameEqualTo("rate limit answers")
            .hasLowCardinalityKeyValue("limit", "answers")
            .hasLowCardinalityKeyValue("outcome", "allowed")
            .hasBeenStarted()
            .hasBeenStopped()
            .doesNotHaveError();
        assertScriptCallInside(onlyDecision());

        this.registry.clear();
        this.events.clear();
        assertThat(limiter.tryAcquire("answers", "alice", one).allowed()).isFalse();
        assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 1)
            .hasObservationWithNameEqualTo("limiter.decision")
            .that()
            .hasLowCardinalityKeyValue("limit", "answers")
            .hasLowCardinalityKeyValue("outcome", "rejected");
    }

    @Test
    void aNonBlockingDecisionIsOneObservationAroundItsScriptCall(EmbeddedRedis redis) {
        RedisRateLimiter limiter = limiter(redis.host(), redis.port(), true);
        Limit one = Limit.of(1, Duration.ofMinutes(1));

        Decision decision = limiter.tryAcquireAsync("exports", "bob", one).toCompletableFuture()
            .orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS)
            .join();

        assertThat(decision.allowed()).isTrue();
        assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 1)
            .hasObservationWithNameEqualTo("limiter.decision")
            .that()
            .hasLowCardinalityKeyValue("limit", "exports")
            .hasLowCardinalityKeyValue("outcome", "allowed")
            .hasBeenStopped();
        assertScriptCallInside(onlyDecision());
    }

    @Test
    void aCallUnderSeveralLimitsIsOneObservationNamingTheLimitThatBoundIt(EmbeddedRedis redis) {
        RedisRateLimiter limiter = limiter(redis.host(), redis.port(), true);
        List<LimitRequest> requests = List.of(
                LimitRequest.of("per-minute", "carol", Limit.of(100, Duration.ofMinutes(1))),
                LimitRequest.of("per-second", "carol", Limit.of(1, Duration.ofSeconds(1))));
        // windows are periods of Redis's clock: the two calls start where one second has room for both
        FixedWindows.awaitRoom(this.factory, Duration.ofSeconds(1), Duration.ofMillis(500));
        limiter.tryAcquire(requests);
        this.registry.clear();
        this.events.clear();

        assertThat(limiter.tryAcquire(requests).allowed()).isFalse();

        assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 1)
            .hasObservationWithNameEqualTo("limiter.decision")
            .that()
            .hasLowCardinalityKeyValue("limit", "per-second")
            .hasLowCardinalityKeyValue("outcome", "rejected");
        assertScriptCallInside(onlyDecision());
    }

    @Test
    void aRefusalFromMemoryIsObservedWithoutAScriptCall(EmbeddedRedis redis) {
        RedisRateLimiter limiter = limiter(redis.host(), redis.port(), true);
        Limit banning = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(10));
        limiter.tryAcquire("logins", "dave", banning);
        assertThat(limiter.tryAcquire("logins", "dave", banning).banned()).isTrue();
        this.registry.clear();
        this.events.clear();

        assertThat(limiter.tryAcquire("logins", "dave", banning).banned()).isTrue();

        assertThat(this.registry).hasSingleObservationThat()
            .hasNameEqualTo("limiter.decision")
            .hasLowCardinalityKeyValue("limit", "logins")
            .hasLowCardinalityKeyValue("outcome", "banned")
            .hasBeenStopped();
        assertThat(this.events).as("script calls started")
            .noneMatch(event -> event.start() && event.context() instanceof LettuceObservationContext);
    }

    @Test
    void aDecisionRedisCannotMakeIsObservedAsAnError() throws Exception {
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        RedisRateLimiter limiter = limiter("127.0.0.1", nothingListens, false);

        assertThatExceptionOfType(DataAccessException.class)
            .isThrownBy(() -> limiter.tryAcquire("answers", "erin", Limit.of(1, Duration.ofMinutes(1))));
        assertThat(limiter.tryAcquireAsync("answers", "erin", Limit.of(1, Duration.ofMinutes(1)))
            .toCompletableFuture()).failsWithin(WAIT);

        assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 2)
            .forAllObservationsWithNameEqualTo("limiter.decision",
                    observation -> observation.hasLowCardinalityKeyValue("limit", "answers")
                        .hasLowCardinalityKeyValue("outcome", "error")
                        .assertThatError()
                        .isInstanceOf(DataAccessException.class));
    }

    @Test
    void decisionsAreNotObservedUnlessARegistryIsSet(EmbeddedRedis redis) {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(
                new StringRedisTemplate(factory(redis.host(), redis.port())), this.prefix, List.of()));

        assertThat(limiter.getObservationRegistry()).isSameAs(ObservationRegistry.NOOP);
        assertThat(limiter.tryAcquire("answers", "frank", Limit.of(1, Duration.ofMinutes(1))).allowed()).isTrue();
        assertThat(this.events).noneMatch(event -> event.context() instanceof DecisionObservationContext);
    }

    /**
     * The script call's observation starts after the decision's, before it stops, as its child:
     * it was sent while the decision's observation was current. (Which of the two stops first is
     * not fixed: the client ends its own in a callback of the reply, as the decision ends, so the
     * client's stop is waited for.)
     */
    private void assertScriptCallInside(DecisionObservationContext decision) {
        List<Observation.Context> calls = this.events.stream()
            .filter(event -> event.start() && event.context() instanceof LettuceObservationContext)
            .map(Event::context)
            .toList();
        assertThat(calls).as("the script calls").singleElement().satisfies(call -> {
            assertThat(((LettuceObservationContext) call).getRequiredCommand().getType().toString())
                .isIn("EVALSHA", "EVAL");
            assertThat(call.getParentObservation()).isNotNull();
            assertThat(call.getParentObservation().getContextView()).isSameAs(decision);
        });
        awaitStopped(calls.get(0));
        List<String> order = this.events.stream()
            .filter(event -> event.context() == decision || event.context() == calls.get(0))
            .map(event -> (event.start() ? "start " : "stop ") + event.context().getName())
            .toList();
        assertThat(order.subList(0, 2)).containsExactly("start limiter.decision", "start lettuce");
        assertThat(order).containsExactlyInAnyOrder("start limiter.decision", "start lettuce", "stop lettuce",
                "stop limiter.decision");
    }

    /** Lettuce stops its observation in a callback of the reply, on its own thread: soon, not at once. */
    private void awaitStopped(Observation.Context call) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (this.events.stream().noneMatch(event -> !event.start() && event.context() == call)) {
            assertThat(System.nanoTime() - deadline).as("the script call's observation stopped within " + WAIT)
                .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private DecisionObservationContext onlyDecision() {
        List<DecisionObservationContext> decisions = this.events.stream()
            .filter(event -> event.start() && event.context() instanceof DecisionObservationContext)
            .map(event -> (DecisionObservationContext) event.context())
            .toList();
        assertThat(decisions).hasSize(1);
        return decisions.get(0);
    }

    private RedisRateLimiter limiter(String host, int port, boolean up) {
        RedisRateLimiter limiter = this.closing.add(
                Limiters.of(new StringRedisTemplate(factory(host, port)), this.prefix,
                List.of(), new LocalRefusals(100, Duration.ofMinutes(1))));
        limiter.observations.registry(this.registry);
        if (up) {
            // what the limiter's start does; its commands are not decisions
            limiter.check();
        }
        this.registry.clear();
        this.events.clear();
        return limiter;
    }

    /** A factory whose client observes its commands in the test's registry, as Spring Boot sets it up. */
    private LettuceConnectionFactory factory(String host, int port) {
        this.registry.observationConfig().observationHandler(new Recorder(this.events));
        this.resources = DefaultClientResources.builder()
            .tracing(new MicrometerTracing(this.registry, "limiter-test"))
            .build();
        this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
                LettuceClientConfiguration.builder()
                    .clientResources(this.resources)
                    .commandTimeout(Duration.ofSeconds(2))
                    .build());
        this.factory.afterPropertiesSet();
        this.factory.start();
        return this.factory;
    }

    private record Event(boolean start, Observation.Context context) {
    }

    private record Recorder(List<Event> events) implements ObservationHandler<Observation.Context> {

        @Override
        public void onStart(Observation.Context context) {
            this.events.add(new Event(true, context));
        }

        @Override
        public void onStop(Observation.Context context) {
            this.events.add(new Event(false, context));
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

    }

}
