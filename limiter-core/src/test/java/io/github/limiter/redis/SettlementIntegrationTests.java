package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Settling calls after they ran ({@link RedisRateLimiter#settleAsync}), on real Redis: the
 * difference goes to the window the call was decided in while it runs, never below 0, and nothing is
 * written once it ended; a count that fell is announced to the instances that remember refusals.
 */
@WithRedis
class SettlementIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Duration WAIT = Duration.ofSeconds(10);

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "settle-" + UUID.randomUUID() + ":";

    private final Limit fivePerHour = Limit.of(5, Duration.ofHours(1));

    @Test
    void aFixedWindowGetsTheDifferenceBackOrChargedNeverBelowZero() {
        FixedWindows.awaitRoom(redis, Duration.ofHours(1), Duration.ofSeconds(30));
        RedisRateLimiter limiter = limiter();
        LimitRequest threeTaken = new LimitRequest("budget", "k", this.fivePerHour, 3);
        Decision decided = limiter.tryAcquire(List.of(threeTaken));
        assertThat(decided.count()).isEqualTo(3);
        assertThat(settle(limiter, threeTaken, decided, 1)).as("two given back").isTrue();
        assertThat(count("budget", "k")).isEqualTo(1);
        assertThat(settle(limiter, threeTaken, decided, 5)).as("two charged").isTrue();
        assertThat(count("budget", "k")).isEqualTo(3);
        assertThat(settle(limiter, threeTaken, decided, 3)).as("nothing to settle").isFalse();
        assertThat(settle(limiter, new LimitRequest("budget", "k", this.fivePerHour, 5), decided, 0)).isTrue();
        assertThat(count("budget", "k")).as("never below 0").isZero();
        assertThat(redis.getExpire(stateKey("budget", "k"), TimeUnit.MILLISECONDS))
            .as("the key keeps its window's expiry").isPositive().isLessThanOrEqualTo(Duration.ofHours(1).toMillis());
    }

    @Test
    void aChargeForACallThatTookNothingOpensItsWindowWithAnExpiry() {
        FixedWindows.awaitRoom(redis, Duration.ofHours(1), Duration.ofSeconds(30));
        RedisRateLimiter limiter = limiter();
        LimitRequest free = new LimitRequest("free", "k", this.fivePerHour, 0);
        Decision decided = limiter.tryAcquire(List.of(free));
        assertThat(decided.resetAfter()).as("an empty window reports no reset").isZero();
        assertThat(settle(limiter, free, decided, 2)).isTrue();
        assertThat(count("free", "k")).isEqualTo(2);
        assertThat(redis.getExpire(stateKey("free", "k"), TimeUnit.MILLISECONDS)).isPositive()
            .isLessThanOrEqualTo(Duration.ofHours(1).toMillis());
    }

    @Test
    void aCalendarLimitSettlesInItsPeriodAndAChargeOpensItWithThePeriodsExpiry() {
        RedisRateLimiter limiter = limiter();
        Limit perYear = Limit.of(100, CalendarWindow.YEAR, ZoneOffset.UTC);
        LimitRequest ten = new LimitRequest("yearly", "k", perYear, 10);
        Decision decided = limiter.tryAcquire(List.of(ten));
        assertThat(settle(limiter, ten, decided, 4)).isTrue();
        assertThat(count("yearly", "k")).isEqualTo(4);
        LimitRequest free = new LimitRequest("yearly", "other", perYear, 0);
        Decision nothingTaken = limiter.tryAcquire(List.of(free));
        assertThat(settle(limiter, free, nothingTaken, 3)).isTrue();
        assertThat(count("yearly", "other")).isEqualTo(3);
        long untilNextYear = Duration.between(Instant.now(),
                ZonedDateTime.now(ZoneOffset.UTC).withDayOfYear(1).toLocalDate().plusYears(1)
                    .atStartOfDay(ZoneOffset.UTC)).toMillis();
        assertThat(redis.getExpire(stateKey("yearly", "other"), TimeUnit.MILLISECONDS))
            .as("the period's end, no later").isPositive().isLessThanOrEqualTo(untilNextYear + 1000);
    }

    @Test
    void aSettlementAfterItsWindowEndedWritesNothing() {
        RedisRateLimiter limiter = limiter();
        Limit perSecond = Limit.of(5, Duration.ofSeconds(1));
        FixedWindows.awaitRoom(redis, Duration.ofSeconds(1), Duration.ofMillis(300));
        LimitRequest one = new LimitRequest("short", "k", perSecond, 1);
        Decision decided = limiter.tryAcquire(List.of(one));
        long decidedAt = System.nanoTime();
        assertThat(decided.count()).isEqualTo(1);
        // the next second's first call: its own window
        Decision next = awaitNextWindow(limiter, one, decided);
        assertThat(next.count()).isEqualTo(1);
        Duration since = Duration.ofNanos(System.nanoTime() - decidedAt);
        assertThat(limiter.settleAsync(one, decided, 0, since).toCompletableFuture().join()).isFalse();
        assertThat(count("short", "k")).as("the next window's count is its own").isEqualTo(1);
        assertThat(limiter.settleAsync(one, decided, 3, since).toCompletableFuture().join()).isFalse();
        assertThat(count("short", "k")).as("nor is a charge carried into it").isEqualTo(1);
    }

    @Test
    void aSlidingWindowSettlesTheCountOfTheCallsWindowWhileItWeighs() {
        RedisRateLimiter limiter = limiter();
        Limit sliding = Limit.of(5, Duration.ofSeconds(1)).withAlgorithm(Algorithm.SLIDING_WINDOW);
        FixedWindows.awaitRoom(redis, Duration.ofSeconds(1), Duration.ofMillis(300));
        LimitRequest two = new LimitRequest("sliding", "k", sliding, 2);
        Decision decided = limiter.tryAcquire(List.of(two));
        long decidedAt = System.nanoTime();
        assertThat(settle(limiter, two, decided, 1)).isTrue();
        assertThat(hash("sliding", "k", "c")).as("this window's count").isEqualTo("1");
        // once the next window has a call, the call's count is the previous window's, which still weighs
        Decision next = awaitNextWindow(limiter, new LimitRequest("sliding", "k", sliding, 1), decided);
        assertThat(hash("sliding", "k", "p")).isEqualTo("1");
        assertThat(limiter.settleAsync(two, decided, 0, Duration.ofNanos(System.nanoTime() - decidedAt))
            .toCompletableFuture()
            .join()).isTrue();
        assertThat(hash("sliding", "k", "p")).isEqualTo("0");
        assertThat(hash("sliding", "k", "c")).as("the next window's own count").isEqualTo("1");
        assertThat(next.allowed()).isTrue();
    }

    @Test
    void aCountThatFellIsAnnouncedToTheInstancesThatRememberRefusals() throws InterruptedException {
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(redis)
            .keyPrefix(this.prefix)
            .localCache(100, Duration.ofMinutes(1))
            .build());
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        RedisConnection subscriber = redis.getConnectionFactory().getConnection();
        this.closing.add(subscriber::close);
        String channel = RedisLayout.invalidationChannel(this.prefix);
        subscriber.subscribe((message, pattern) -> heard.add(new String(message.getBody(), StandardCharsets.UTF_8)),
                channel.getBytes(StandardCharsets.UTF_8));
        awaitSubscribed(channel, heard);
        FixedWindows.awaitRoom(redis, Duration.ofHours(1), Duration.ofSeconds(30));
        Limit one = Limit.of(1, Duration.ofHours(1));
        LimitRequest request = LimitRequest.of("one", "k", one);
        Decision decided = limiter.tryAcquire(List.of(request));
        assertThat(limiter.tryAcquire(List.of(request)).allowed()).as("refused, and remembered").isFalse();
        assertThat(settle(limiter, request, decided, 0)).isTrue();
        assertThat(heard.poll(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(stateKey("one", "k"));
        assertThat(limiter.tryAcquire(List.of(request)).allowed()).as("asked Redis again: room").isTrue();
        assertThat(settle(limiter, request, decided, 2)).as("a charge").isTrue();
        assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).as("a charge is not announced").isNull();
    }

    @Test
    void aRedisThatRefusesTheSettlementLeavesTheCostTakenAndSaysWhy() {
        try (EmbeddedRedis server = EmbeddedRedis.start()) {
            LettuceConnectionFactory connection = server.newConnectionFactory();
            try {
                StringRedisTemplate own = new StringRedisTemplate(connection);
                RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(own).keyPrefix(this.prefix).build());
                FixedWindows.awaitRoom(own, Duration.ofHours(1), Duration.ofSeconds(30));
                LimitRequest three = new LimitRequest("oom", "k", this.fivePerHour, 3);
                Decision decided = limiter.tryAcquire(List.of(three));
                // reachable, but out of memory: Redis refuses writes
                server.withCommands((commands) -> commands.configSet("maxmemory", "1"));
                assertThatExceptionOfType(CompletionException.class)
                    .isThrownBy(() -> limiter.settleAsync(three, decided, 0, Duration.ZERO).toCompletableFuture().join())
                    .withCauseInstanceOf(DataAccessException.class)
                    .satisfies((ex) -> assertThat(RedisRateLimiter.Failure.of(ex.getCause()).kind()).isEqualTo("oom"));
                assertThat(limiter.health().failureStreak()).as("reported as a decision's failure is").isNotNull()
                    .extracting(RedisRateLimiter.FailureStreak::kind).isEqualTo("oom");
                server.withCommands((commands) -> commands.configSet("maxmemory", "0"));
                assertThat(FixedWindows.count(own, stateKey("oom", "k"))).as("the cost taken stands").isEqualTo(3);
                assertThat(settle(limiter, three, decided, 0)).as("settled once Redis writes again").isTrue();
                assertThat(FixedWindows.count(own, stateKey("oom", "k"))).isZero();
            }
            finally {
                connection.destroy();
            }
        }
    }

    @Test
    void anAlgorithmWithoutWindowsCannotSettle() {
        RedisRateLimiter limiter = limiter();
        for (Algorithm algorithm : List.of(Algorithm.TOKEN_BUCKET, Algorithm.SLIDING_LOG)) {
            LimitRequest request = LimitRequest.of("other", algorithm.name(), this.fivePerHour.withAlgorithm(algorithm));
            Decision decided = limiter.tryAcquire(List.of(request));
            assertThatIllegalArgumentException().isThrownBy(() -> limiter.settleAsync(request, decided, 0, Duration.ZERO))
                .withMessageContaining("cannot be settled");
        }
    }

    /** The request decided once the window the first decision was made in has ended, by Redis's clock. */
    private Decision awaitNextWindow(RedisRateLimiter limiter, LimitRequest request, Decision first) {
        Duration left = FixedWindows.left(redis.getRequiredConnectionFactory(), request.limit().window());
        LockSupport.parkNanos(left.plusMillis(2).toNanos());
        Decision next = limiter.tryAcquire(List.of(request));
        assertThat(next.resetAfter()).as("a window after the first's").isGreaterThan(first.resetAfter().minus(left));
        return next;
    }

    /** Returns once a probe published on the channel is heard: the subscription is in place. */
    private static void awaitSubscribed(String channel, BlockingQueue<String> heard) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            redis.convertAndSend(channel, "probe");
            if ("probe".equals(heard.poll(20, TimeUnit.MILLISECONDS))) {
                heard.clear();
                return;
            }
        }
        throw new AssertionError("not subscribed to " + channel + " within " + WAIT);
    }

    private boolean settle(RedisRateLimiter limiter, LimitRequest request, Decision decided, long actualCost) {
        return limiter.settleAsync(request, decided, actualCost, Duration.ZERO).toCompletableFuture().join();
    }

    private long count(String limitId, String key) {
        return FixedWindows.count(redis, stateKey(limitId, key));
    }

    private String hash(String limitId, String key, String field) {
        return (String) redis.opsForHash().get(stateKey(limitId, key), field);
    }

    private String stateKey(String limitId, String key) {
        return this.prefix + "{" + limitId + ":" + key + "}";
    }

    private RedisRateLimiter limiter() {
        return this.closing.add(RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build());
    }

}
