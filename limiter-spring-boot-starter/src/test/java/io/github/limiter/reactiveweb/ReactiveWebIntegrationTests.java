package io.github.limiter.reactiveweb;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.reactiveweb.KeptAliveConnection.Response;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.FixedWindows;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import reactor.blockhound.BlockHound;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring WebFlux application on real Redis gets the same limits, tiers and HTTP answers as a
 * Spring MVC one, counted per subscription, and nothing it does for them blocks a non-blocking
 * thread: BlockHound watches every event-loop thread (the web server's and Lettuce's) through
 * allowed, refused, banned-from-memory calls and calls to an instance whose Redis is down, and
 * records any blocking call. Every request goes on one kept-alive connection, as a browser's would,
 * and each must be answered within 2 s.
 *
 * <p>Runs in a JVM of its own (the {@code blockhound} execution of surefire), since BlockHound
 * instruments the JDK for the rest of the JVM's life.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReactiveWebIntegrationTests {

    /** How long any request may wait for its answer. */
    private static final Duration ANSWER_BOUND = Duration.ofSeconds(2);

    private static final List<String> blockingCalls = new CopyOnWriteArrayList<>();

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static EmbeddedRedis redis;

    private static ConfigurableApplicationContext context;

    // every request of the tests goes on this one kept-alive connection, as a browser's would
    private static KeptAliveConnection connection;

    private final String user = "user-" + UUID.randomUUID();

    @BeforeAll
    static void start() {
        // Lettuce counts each thread that writes a command under a ReentrantLock (SharedLock), which
        // another writer holds only to count itself, and a reconnect or a flush only to move
        // queued commands to the channel: an instant's park where two threads write at once, as
        // Spring Data Redis's reactive commands do from event loops too, not a wait on I/O
        BlockHound.install(builder -> builder
            .allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
            .blockingMethodCallback(method -> {
                StringBuilder trace = new StringBuilder(Thread.currentThread().getName() + ": " + method);
                for (StackTraceElement element : new Throwable().getStackTrace()) {
                    trace.append("\n\tat ").append(element);
                }
                blockingCalls.add(trace.toString());
            }));
        redis = EmbeddedRedis.start();
        // a decision that times out follows on-failure (allow): a margin for a loaded machine
        context = start(redis.port(), Duration.ofSeconds(1));
        connection = new KeptAliveConnection(port(context), ANSWER_BOUND);
    }

    /** The seconds a {@code RateLimit} header's {@code t} gives. */
    private static long secondsIn(String header) {
        return Long.parseLong(header.substring(header.indexOf("t=") + 2));
    }

    private static ConfigurableApplicationContext start(int redisPort, Duration redisTimeout) {
        return new SpringApplicationBuilder(ReactiveAnswers.class).web(WebApplicationType.REACTIVE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisPort,
                    "--limiter.key-prefix=reactive-web-" + UUID.randomUUID() + ":",
                    "--limiter.policies.reads.window=1m", "--limiter.policies.reads.max=2",
                    "--limiter.policies.reads.alert-at=1", "--limiter.policies.reads.ban-for=10m",
                    "--limiter.web.headers=both", "--limiter.redis.timeout=" + redisTimeout.toMillis() + "ms",
                    "--limiter.web.rules.elsewhere.paths=/elsewhere", "--limiter.web.rules.elsewhere.key=#params['user']",
                    "--limiter.web.rules.elsewhere.blank-key=skip", "--limiter.web.rules.elsewhere.window=1m",
                    "--limiter.web.rules.elsewhere.max=2");
    }

    @AfterAll
    static void stop() {
        if (connection != null) {
            connection.close();
        }
        if (context != null) {
            context.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    @Order(0)
    void blockHoundRecordsABlockingCallOnANonBlockingThread() {
        assertThat(get("/careless").body()).isEqualTo("slept");
        assertThat(blockingCalls).anySatisfy(call -> assertThat(call).contains("sleep"));
        blockingCalls.clear();
    }

    @Test
    @Order(1)
    void allowedCallsGetTheRateLimitHeaders() {
        long before = FixedWindows.secondsLeft(MINUTE);
        Response first = get("/reads/" + this.user);
        long after = FixedWindows.secondsLeft(MINUTE);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).isEqualTo("read for " + this.user);
        assertThat(first.header("RateLimit-Policy")).hasValue("\"reads\";q=2;w=60");
        // the window is the minute of Redis's clock: what is left of it
        assertThat(first.header("RateLimit")).hasValueSatisfying(value -> assertThat(value)
            .matches("\"reads\";r=1;t=\\d+")
            .satisfies(matched -> assertThat(secondsIn(matched)).isBetween(after, before)));
        assertThat(first.header("X-RateLimit-Limit")).hasValue("2");
        assertThat(first.header("X-RateLimit-Remaining")).hasValue("1");
        assertNothingBlocked();
    }

    @Test
    @Order(2)
    void aCallPastTheLimitIsBannedWith429RetryAfterAndAProblemThenRefusedFromMemory() {
        RedisRateLimiter limiter = context.getBean(RedisRateLimiter.class);
        int bodiesBefore = context.getBean(ReactiveAnswers.Answers.class).bodies();
        get("/reads/" + this.user);
        get("/reads/" + this.user);
        Response banned = get("/reads/" + this.user);
        assertThat(banned.statusCode()).isEqualTo(429);
        assertThat(banned.header("Content-Type")).hasValue("application/problem+json");
        assertThat(banned.header("Retry-After")).hasValue("600");
        assertThat(banned.header("RateLimit")).hasValue("\"reads\";r=0;t=600");
        assertThat(banned.header("X-RateLimit-Remaining")).hasValue("0");
        assertThat(banned.body()).contains("\"type\":\"https://limiter.github.io/problems/banned\"",
                "\"limitId\":\"reads\"", "\"status\":429", "\"banned\":true");
        // the ban is in this instance's memory now: the next call is refused without Redis. The
        // ban's event is recorded in Redis by a script of its own, on the recorder's thread: counted
        // once it is written, not while it may still come
        assertThat(context.getBean(RedisRateLimiter.class).awaitRecentEventsWritten(Duration.ofSeconds(5))).isTrue();
        long scripts = scriptCalls();
        Response fromMemory = get("/reads/" + this.user);
        assertThat(fromMemory.statusCode()).isEqualTo(429);
        assertThat(fromMemory.header("Retry-After")).hasValueSatisfying(
                value -> assertThat(Long.parseLong(value)).isBetween(590L, 600L));
        assertThat(scriptCalls()).isEqualTo(scripts);
        assertThat(context.getBean(ReactiveAnswers.Answers.class).bodies() - bodiesBefore).isEqualTo(2);
        assertThat(limiter.isBanned("reads", this.user)).isTrue();
        assertNothingBlocked();
    }

    @Test
    @Order(3)
    void fluxAndCompletableFutureHandlersAreLimitedToo() {
        assertThat(get("/digits/" + this.user).body()).isEqualTo("123");
        Response refused = get("/digits/" + this.user);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("\"type\":\"https://limiter.github.io/problems/rate-limit-exceeded\"");
        assertThat(get("/later/" + this.user).body()).isEqualTo("later for " + this.user);
        Response later = get("/later/" + this.user);
        assertThat(later.statusCode()).isEqualTo(429);
        assertThat(later.header("Retry-After")).isPresent();
        assertNothingBlocked();
    }

    @Test
    @Order(4)
    void anApplicationThatHandlesTheRefusalItselfKeepsItsAnswer() {
        assertThat(get("/own/" + this.user).statusCode()).isEqualTo(200);
        Response own = get("/own/" + this.user);
        assertThat(own.statusCode()).isEqualTo(418);
        assertThat(own.body()).isEqualTo("slow down, " + this.user);
        assertNothingBlocked();
    }

    @Test
    @Order(5)
    void fluxAndCompletableFutureAnswersGetTheRateLimitHeadersToo() {
        for (String path : List.of("/digits/", "/later/")) {
            long before = FixedWindows.secondsLeft(MINUTE);
            Response allowed = get(path + this.user);
            long after = FixedWindows.secondsLeft(MINUTE);
            assertThat(allowed.statusCode()).as(path).isEqualTo(200);
            assertThat(allowed.header("RateLimit-Policy")).as(path).hasValueSatisfying(
                    value -> assertThat(value).matches("\"[^\"]+\";q=1;w=60"));
            assertThat(allowed.header("RateLimit")).as(path).hasValueSatisfying(
                    value -> assertThat(value).matches("\"[^\"]+\";r=0;t=\\d+")
                        .satisfies(matched -> assertThat(secondsIn(matched)).isBetween(after, before)));
            assertThat(allowed.header("X-RateLimit-Limit")).as(path).hasValue("1");
            assertThat(allowed.header("X-RateLimit-Remaining")).as(path).hasValue("0");
        }
        assertNothingBlocked();
    }

    @Test
    @Order(6)
    void answersAreCommittedOnTheConnectionsEventLoopWhereverTheirDecisionCompleted() {
        ReactiveAnswers.commitThreads.clear();
        get("/reads/" + this.user);
        get("/later/" + this.user);
        get("/later/" + this.user);
        get("/elsewhere");
        // the server's event loops; decisions complete on Lettuce's, Jedis' on the limiter's own threads
        assertThat(ReactiveAnswers.commitThreads).hasSize(4)
            .allSatisfy(thread -> assertThat(thread).startsWith("reactor-http-"));
        assertNothingBlocked();
    }

    /**
     * Hundreds of requests one after another on one kept-alive connection, each answered within 2 s:
     * allowed and refused, from Redis and from memory, Mono, Flux and CompletableFuture handlers, and
     * an unlimited handler that answers on another thread. Reactor Netty stops reading a kept-alive
     * connection when a request arrives before the previous response's operations have terminated
     * and is then answered at once (it logs "Buffering keep-alive request, previous ops not yet
     * terminated"); a response committed off the connection's event loop, as a limited handler's was
     * on the Redis client's thread, left that gap open.
     */
    /** A URL rule's web filter reads the request and decides without blocking, allowed and refused. */
    @Test
    @Order(7)
    void aUrlRuleDecidesWithoutBlocking() {
        String path = "/elsewhere?user=" + this.user;
        assertThat(get(path).header("X-RateLimit-Remaining")).hasValue("1");
        assertThat(get(path).header("X-RateLimit-Remaining")).hasValue("0");
        Response refused = get(path);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.header("Retry-After")).isPresent();
        assertThat(refused.body()).contains("\"limitId\":\"elsewhere\"");
        assertThat(get("/elsewhere").body()).as("no user: skipped").isEqualTo("answered elsewhere");
        assertNothingBlocked();
    }

    @Test
    @Order(8)
    void hundredsOfRequestsOnOneKeptAliveConnectionAreEachAnsweredInTime() {
        try (KeptAliveConnection kept = new KeptAliveConnection(port(context), ANSWER_BOUND)) {
            for (int round = 0; round < 30; round++) {
                String user = this.user + "-" + round;
                assertThat(kept.get("/reads/" + user).statusCode()).isEqualTo(200);
                assertThat(kept.get("/reads/" + user).statusCode()).isEqualTo(200);
                assertThat(kept.get("/reads/" + user).statusCode()).as("banned").isEqualTo(429);
                assertThat(kept.get("/reads/" + user).statusCode()).as("refused from memory").isEqualTo(429);
                assertThat(kept.get("/digits/" + user).body()).isEqualTo("123");
                assertThat(kept.get("/digits/" + user).statusCode()).isEqualTo(429);
                assertThat(kept.get("/later/" + user).statusCode()).isEqualTo(200);
                assertThat(kept.get("/later/" + user).statusCode()).isEqualTo(429);
                assertThat(kept.get("/elsewhere").body()).isEqualTo("answered elsewhere");
                assertThat(kept.get("/reads/" + user).statusCode()).as("refused from memory").isEqualTo(429);
            }
            assertThat(kept.answered()).isEqualTo(300);
        }
        assertNothingBlocked();
    }

    /** A call over a limit with a maxWait waits for the next window without blocking any thread. */
    @Test
    @Order(8)
    void aCallOverALimitWithAMaxWaitWaitsForRoomWithoutBlocking() {
        long start = System.nanoTime();
        for (int call = 0; call < 3; call++) {
            Response answer = get("/partner/" + this.user);
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("partner called for " + this.user);
        }
        // one call a 400 ms window: the three took three windows, waiting for two to end
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(400));
        assertNothingBlocked();
    }

    // last: closing a second application disposes Reactor Netty's global event loops, the first one's too
    @Test
    @Order(9)
    void whileRedisIsDownCallsFollowTheirOnFailureSettingWithoutBlocking() throws Exception {
        // an instance whose Redis is not there: started while it was down, as after a crash
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        try (ConfigurableApplicationContext down = start(nothingListens, Duration.ofMillis(200));
                KeptAliveConnection toDown = new KeptAliveConnection(port(down), ANSWER_BOUND)) {
            long start = System.nanoTime();
            Response allowed = toDown.get("/reads/" + this.user);
            Response denied = toDown.get("/strict/" + this.user);
            long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            long ruleStart = System.nanoTime();
            Response ruled = toDown.get("/elsewhere?user=" + this.user);
            long ruleMillis = Duration.ofNanos(System.nanoTime() - ruleStart).toMillis();
            assertThat(allowed.statusCode()).as("on-failure allow (the default)").isEqualTo(200);
            assertThat(ruled.body()).as("a URL rule, on-failure allow").isEqualTo("answered elsewhere");
            assertThat(denied.statusCode()).as("on-failure deny").isEqualTo(503);
            assertThat(denied.body()).contains("\"type\":\"https://limiter.github.io/problems/limiter-unavailable\"");
            assertThat(denied.header("Retry-After")).hasValue("1");
            assertThat(millis).as("two calls, each within the limiter's timeout").isLessThan(2_000);
            assertThat(ruleMillis).as("the rule's call, within the limiter's timeout").isLessThan(1_000);
            // on-failure local: this instance counts in its memory, refuses past max as Redis would
            List<Response> local = List.of(toDown.get("/local/" + this.user), toDown.get("/local/" + this.user),
                    toDown.get("/local/" + this.user));
            assertThat(local).extracting(Response::statusCode).containsExactly(200, 200, 429);
            assertThat(local.get(0).header("X-RateLimit-Remaining")).as("headers of the local decision").hasValue("1");
            assertThat(local.get(2).header("X-RateLimit-Remaining")).hasValue("0");
            assertThat(local.get(2).body()).contains("\"type\":\"https://limiter.github.io/problems/rate-limit-exceeded\"");
        }
        assertNothingBlocked();
    }

    private static void assertNothingBlocked() {
        assertThat(blockingCalls).as("blocking calls on non-blocking threads").isEmpty();
    }

    private static int port(ConfigurableApplicationContext application) {
        return Integer.parseInt(application.getEnvironment().getProperty("local.server.port"));
    }

    private static long scriptCalls() {
        return redis.commandCalls().getOrDefault("evalsha", 0L) + redis.commandCalls().getOrDefault("eval", 0L);
    }

    private static Response get(String path) {
        try {
            return connection.get(path);
        }
        catch (RuntimeException ex) {
            // a stalled connection fails its test; the next test starts on a connection of its own
            connection.close();
            connection = new KeptAliveConnection(port(context), ANSWER_BOUND);
            throw ex;
        }
    }

}
