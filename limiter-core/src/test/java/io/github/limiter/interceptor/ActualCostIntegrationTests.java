package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.limiter.Algorithm;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.policy.PolicyOverride;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @RateLimit(actualCost = ...)} on real Redis: the cost taken before a call holds while it
 * runs, so 100 parallel calls cannot pass a limit of 5, and the difference is settled once the call
 * returned or threw, for blocking, asynchronous and reactive methods; a limit that cannot settle
 * exactly fails the start.
 */
@WithRedis
class ActualCostIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static final int PARALLEL = 100;

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "actual-cost-" + UUID.randomUUID() + ":";

    private final ExecutorService callers = Executors.newFixedThreadPool(PARALLEL);

    private @Nullable AnnotationConfigApplicationContext context;

    private Logins logins;

    @BeforeEach
    void start() {
        // the limits are fixed windows of an hour of Redis's clock: none ends within a test
        FixedWindows.awaitRoom(redis, Duration.ofHours(1), Duration.ofSeconds(30));
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build());
        context.getBeanFactory().registerSingleton("rateLimiter", limiter);
        context.register(ReactiveMethodsIntegrationTests.AdvisorConfig.class, Logins.class);
        this.context = context;
        context.refresh();
        this.logins = context.getBean(Logins.class);
    }

    @AfterEach
    void stop() {
        this.logins.open();
        this.callers.shutdownNow();
        if (this.context != null) {
            this.context.close();
        }
    }

    @Test
    void blockingCallsCountOnlyTheFailedOnesAndParallelOnesCannotOvershoot() throws InterruptedException {
        Outcomes wrong = inParallel((user, i) -> CompletableFuture.supplyAsync(() -> this.logins.login(user, false),
                this.callers), "mallory");
        wrong.assertFiveRanAndTheRestWereRefused(this.logins);
        assertThat(count("login", "mallory")).as("five failed attempts count").isEqualTo(5);
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> this.logins.login("mallory", true))
            .as("the right password too, until the window ends");

        this.logins.reset();
        Outcomes right = inParallel((user, i) -> CompletableFuture.supplyAsync(() -> this.logins.login(user, true),
                this.callers), "alice");
        right.assertFiveRanAndTheRestWereRefused(this.logins);
        assertThat(count("login", "alice")).as("successful logins never count").isZero();
        for (int i = 0; i < 10; i++) {
            assertThat(this.logins.login("alice", true)).isEqualTo("token");
        }
        assertThat(count("login", "alice")).isZero();
    }

    @Test
    void asynchronousCallsAreSettledWhenTheirFuturesComplete() throws InterruptedException {
        Outcomes wrong = inParallel((user, i) -> this.logins.loginAsync(user, false), "mallory");
        wrong.assertFiveRanAndTheRestWereRefused(this.logins);
        assertThat(count("loginAsync", "mallory")).isEqualTo(5);

        this.logins.reset();
        Outcomes right = inParallel((user, i) -> this.logins.loginAsync(user, true), "alice");
        right.assertFiveRanAndTheRestWereRefused(this.logins);
        assertThat(count("loginAsync", "alice")).as("settled before the future completed").isZero();
    }

    @Test
    void reactiveCallsAreSettledWhenTheyComplete() throws InterruptedException {
        Outcomes wrong = inParallel((user, i) -> this.logins.loginReactive(user, false).toFuture(), "mallory");
        wrong.assertFiveRanAndTheRestWereRefused(this.logins);
        assertThat(count("loginReactive", "mallory")).isEqualTo(5);

        this.logins.reset();
        Outcomes right = inParallel((user, i) -> this.logins.loginReactive(user, true).toFuture(), "alice");
        right.assertFiveRanAndTheRestWereRefused(this.logins);
        assertThat(count("loginReactive", "alice")).isZero();
    }

    @Test
    void aFluxIsSettledWhenItCompletesOrFails() {
        this.logins.open();
        StepVerifier.create(this.logins.lines("alice", false)).expectNext("a", "b").expectComplete().verify(WAIT);
        assertThat(count("lines", "alice")).as("completed: given back").isZero();
        StepVerifier.create(this.logins.lines("alice", true)).expectNext("a", "b")
            .expectError(IllegalStateException.class)
            .verify(WAIT);
        assertThat(count("lines", "alice")).as("failed: counted").isEqualTo(1);
    }

    @Test
    void aBudgetTakenBeforeTheCallIsSettledToWhatItUsed() {
        this.logins.open();
        assertThat(this.logins.complete("carol", 400, "x".repeat(120))).hasSize(120);
        assertThat(count("tokens", "carol")).as("400 taken, 280 given back").isEqualTo(120);
        this.logins.complete("carol", 100, "x".repeat(250));
        assertThat(count("tokens", "carol")).as("100 taken, 150 charged").isEqualTo(370);
        assertThatExceptionOfType(RateLimitExceededException.class)
            .isThrownBy(() -> this.logins.complete("carol", 700, "x"))
            .as("370 + 700 would pass 1000");
    }

    @Test
    void anActualCostThatCannotBeEvaluatedKeepsTheCostTakenAndIsLoggedOnce() {
        this.logins.open();
        Logger logger = (Logger) LoggerFactory.getLogger(Settlement.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            assertThat(this.logins.negative("dave")).isEqualTo("done");
            assertThat(this.logins.negative("dave")).isEqualTo("done");
        }
        finally {
            logger.detachAppender(logged);
        }
        assertThat(count("negative", "dave")).as("each kept its cost of 1").isEqualTo(2);
        assertThat(logged.list).singleElement().satisfies((event) -> {
            assertThat(event.getLevel().toString()).isEqualTo("ERROR");
            assertThat(event.getFormattedMessage()).contains("'negative'", "'-1'", "keeps the cost it took (1)");
        });
    }

    @Test
    void aLimitThatCannotSettleExactlyFailsTheStart() throws NoSuchMethodException {
        LimitSpecs specs = new LimitSpecs(new KeyExpressions(null),
                () -> new RateLimitAdvisor.Settings(Map.of(), BlankKey.REJECT, OnFailure.ALLOW), UnaryOperator.identity(),
                new ProxyChecks(null));
        assertThat(refusal(specs, "tokenBucket")).contains("Unsettled.tokenBucket", "actualCost",
                "cannot be settled exactly under TOKEN_BUCKET", "FIXED_WINDOW or SLIDING_WINDOW");
        assertThat(refusal(specs, "slidingLog")).contains("cannot be settled exactly under SLIDING_LOG");
        assertThat(refusal(specs, "shortWindow")).contains("needs a window of at least 1s, not 500ms");
        assertThat(refusal(specs, "unknownVariable")).contains("#reslt", "#result and #exception");
        assertThat(refusal(specs, "badSyntax")).contains("is not a valid SpEL expression");
    }

    @Test
    void aPolicyOverrideToAWindowUnderOneSecondIsRefused() throws NoSuchMethodException {
        LimitSpecs specs = new LimitSpecs(new KeyExpressions(null),
                () -> new RateLimitAdvisor.Settings(Map.of("logins", new LimitPolicy(null, Duration.ofMinutes(15), 5L,
                        null, null)), BlankKey.REJECT, OnFailure.ALLOW), UnaryOperator.identity(), new ProxyChecks(null));
        Method method = Overridden.class.getMethod("login", String.class);
        LimitSpec spec = specs.find(method, Overridden.class).specs().get(0);
        assertThat(spec.overriddenBy(new PolicyOverride(3L, Duration.ofSeconds(1), null, null)).max()).isEqualTo(3);
        assertThatExceptionOfType(IllegalArgumentException.class)
            .isThrownBy(() -> spec.overriddenBy(new PolicyOverride(null, Duration.ofMillis(500), null, null)))
            .withMessageContaining("limit 'Overridden.login'")
            .withMessageContaining("would have window 500ms, where its actualCost needs a window of at least 1s");
    }

    private static String refusal(LimitSpecs specs, String name) throws NoSuchMethodException {
        Method method = Unsettled.class.getMethod(name, String.class);
        try {
            specs.find(method, Unsettled.class);
        }
        catch (InvalidRateLimitException ex) {
            return ex.getMessage();
        }
        throw new AssertionError(name + " was not refused");
    }

    /** Starts 100 calls for one user, waits until all but those that run are refused. */
    private Outcomes inParallel(BiFunction<String, Integer, CompletableFuture<String>> call, String user)
            throws InterruptedException {
        CountDownLatch decided = new CountDownLatch(PARALLEL - 5);
        List<CompletableFuture<String>> calls = new ArrayList<>();
        AtomicInteger refused = new AtomicInteger();
        for (int i = 0; i < PARALLEL; i++) {
            calls.add(call.apply(user, i).whenComplete((value, failure) -> {
                Throwable cause = (failure != null && failure.getCause() != null) ? failure.getCause() : failure;
                if (cause instanceof RateLimitExceededException) {
                    refused.incrementAndGet();
                    decided.countDown();
                }
            }));
        }
        assertThat(decided.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("95 refused while five run").isTrue();
        return new Outcomes(calls, refused);
    }

    private long count(String limitId, String key) {
        return FixedWindows.count(redis, this.prefix + "{" + limitId + ":" + key + "}");
    }

    private record Outcomes(List<CompletableFuture<String>> calls, AtomicInteger refused) {

        void assertFiveRanAndTheRestWereRefused(Logins logins) {
            // the allowed calls' bodies may start after the refusals came back
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (logins.ran() < 5 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(logins.ran()).as("bodies that ran while the gate was shut").isEqualTo(5);
            logins.open();
            CompletableFuture.allOf(this.calls.toArray(CompletableFuture[]::new))
                .handle((all, failure) -> null)
                .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                .join();
            assertThat(this.refused.get()).isEqualTo(PARALLEL - 5);
            assertThat(logins.ran()).isEqualTo(5);
        }

    }

    static class Logins {

        private final AtomicInteger ran = new AtomicInteger();

        private volatile CountDownLatch gate = new CountDownLatch(1);

        private final ExecutorService bodies = Executors.newCachedThreadPool();

        // public, not final: called through the proxy, they reach the target's fields

        public int ran() {
            return this.ran.get();
        }

        public void open() {
            this.gate.countDown();
        }

        public void reset() {
            this.ran.set(0);
            this.gate = new CountDownLatch(1);
        }

        @RateLimit(name = "login", key = "#user", window = "1h", max = 5, actualCost = "#exception == null ? 0 : 1")
        public String login(String user, boolean right) {
            return check(right);
        }

        @RateLimit(name = "loginAsync", key = "#user", window = "1h", max = 5,
                actualCost = "#exception == null ? 0 : 1")
        public CompletableFuture<String> loginAsync(String user, boolean right) {
            return CompletableFuture.supplyAsync(() -> check(right), this.bodies);
        }

        @RateLimit(name = "loginReactive", key = "#user", window = "1h", max = 5,
                actualCost = "#exception == null ? 0 : 1")
        public Mono<String> loginReactive(String user, boolean right) {
            return Mono.fromCallable(() -> check(right)).subscribeOn(Schedulers.boundedElastic());
        }

        @RateLimit(name = "lines", key = "#user", window = "1h", max = 5, actualCost = "#exception == null ? 0 : 1")
        public Flux<String> lines(String user, boolean fail) {
            Flux<String> lines = Flux.just("a", "b");
            return fail ? lines.concatWith(Flux.error(new IllegalStateException("broken"))) : lines;
        }

        @RateLimit(name = "tokens", key = "#user", window = "1h", max = 1000, cost = "#maxTokens",
                actualCost = "#result.length()")
        public String complete(String user, int maxTokens, String answer) {
            return answer;
        }

        @RateLimit(name = "negative", key = "#user", window = "1h", max = 5, actualCost = "-1")
        public String negative(String user) {
            return "done";
        }

        private String check(boolean right) {
            this.ran.incrementAndGet();
            try {
                if (!this.gate.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate never opened");
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
            if (!right) {
                throw new IllegalArgumentException("wrong password");
            }
            return "token";
        }

    }

    static class Overridden {

        @RateLimit(policy = "logins", key = "#user", actualCost = "#exception == null ? 0 : 1")
        public String login(String user) {
            return user;
        }

    }

    static class Unsettled {

        @RateLimit(key = "#user", window = "1m", max = 5, algorithm = Algorithm.TOKEN_BUCKET,
                actualCost = "#exception == null ? 0 : 1")
        public String tokenBucket(String user) {
            return user;
        }

        @RateLimit(key = "#user", window = "1m", max = 5, algorithm = Algorithm.SLIDING_LOG,
                actualCost = "#exception == null ? 0 : 1")
        public String slidingLog(String user) {
            return user;
        }

        @RateLimit(key = "#user", window = "500ms", max = 5, actualCost = "#exception == null ? 0 : 1")
        public String shortWindow(String user) {
            return user;
        }

        @RateLimit(key = "#user", window = "1m", max = 5, actualCost = "#reslt.size()")
        public String unknownVariable(String user) {
            return user;
        }

        @RateLimit(key = "#user", window = "1m", max = 5, actualCost = "#result ==")
        public String badSyntax(String user) {
            return user;
        }

    }

}
