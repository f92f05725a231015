package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.reactive.ReactiveRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The non-blocking face of the limiter on real Redis: the same script, counts, tiers and refusals
 * from memory as the blocking one, never waiting on the caller's thread.
 */
@WithRedis
class AsyncDecisionsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "async-" + UUID.randomUUID() + ":";

    private final Limit threePerMinute = Limit.of(3, Duration.ofMinutes(1));

    @Test
    void countsAndRejectsLikeTheBlockingPathOnTheSameCounter() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        for (int call = 1; call <= 2; call++) {
            Decision decision = join(limiter.tryAcquireAsync("answers", "alice", this.threePerMinute));
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.count()).isEqualTo(call);
        }
        assertThat(limiter.tryAcquire("answers", "alice", this.threePerMinute).count()).isEqualTo(3);
        Decision rejected = join(limiter.tryAcquireAsync("answers", "alice", this.threePerMinute));
        assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(rejected.count()).isEqualTo(3);
        assertThat(rejected.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
        assertThat(FixedWindows.count(redis, this.prefix + "{answers:alice}")).isEqualTo(3);
    }

    @Test
    void isExactUnderManyConcurrentDecisions() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        Limit fifty = Limit.of(50, Duration.ofMinutes(1));
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        for (int call = 0; call < 300; call++) {
            decisions.add(limiter.tryAcquireAsync("burst", "k", fifty).toCompletableFuture());
        }
        long allowed = decisions.stream().map(AsyncDecisionsIntegrationTests::join).filter(Decision::allowed).count();
        assertThat(allowed).isEqualTo(50);
        assertThat(FixedWindows.count(redis, this.prefix + "{burst:k}")).isEqualTo(50);
    }

    @Test
    void raisesTheAlertAndStartsTheBanOnceAndTellsTheListeners() {
        List<Decision> told = new CopyOnWriteArrayList<>();
        RateLimitListener listener = new RateLimitListener() {
            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                told.add(binding);
            }
        };
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of(listener)));
        Limit tiers = Limit.of(2, Duration.ofMinutes(1)).withAlertAt(1).withBanFor(Duration.ofMinutes(10));
        List<Decision> decisions = new ArrayList<>();
        for (int call = 0; call < 4; call++) {
            decisions.add(join(limiter.tryAcquireAsync("reads", "mallory", tiers)));
        }
        assertThat(decisions).extracting(Decision::outcome)
            .containsExactly(Outcome.ALLOWED, Outcome.ALLOWED, Outcome.BANNED, Outcome.BANNED);
        assertThat(decisions).filteredOn(Decision::alertRaised).hasSize(1);
        assertThat(decisions).filteredOn(Decision::banStarted).hasSize(1);
        assertThat(decisions.get(3).retryAfter()).isGreaterThan(Duration.ofMinutes(9));
        assertThat(told).containsExactlyElementsOf(decisions);
    }

    @Test
    void refusesFromMemoryWithoutAskingRedisAndCompletesAtOnce(EmbeddedRedis server) {
        LettuceConnectionFactory connection = server.newConnectionFactory();
        try {
            RedisRateLimiter limiter = this.closing.add(
                    Limiters.of(new StringRedisTemplate(connection), this.prefix,
                    List.of(), new LocalRefusals(100, Duration.ofMinutes(1))));
            Limit banning = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(5));
            join(limiter.tryAcquireAsync("crawl", "bot", banning));
            assertThat(join(limiter.tryAcquireAsync("crawl", "bot", banning)).banned()).isTrue();
            long scripts = scriptCalls(server);
            CompletableFuture<Decision> fromMemory = limiter.tryAcquireAsync("crawl", "bot", banning)
                .toCompletableFuture();
            assertThat(fromMemory).isDone();
            assertThat(fromMemory.join().banned()).isTrue();
            assertThat(fromMemory.join().retryAfter()).isGreaterThan(Duration.ofMinutes(4));
            assertThat(scriptCalls(server)).isEqualTo(scripts);
        }
        finally {
            connection.destroy();
        }
    }

    @Test
    void returnsBeforeRedisAnswers() {
        try (EmbeddedRedis server = EmbeddedRedis.start()) {
            LettuceConnectionFactory connection = server.newConnectionFactory();
            try {
                RedisRateLimiter limiter = this.closing.add(
                        Limiters.of(new StringRedisTemplate(connection), this.prefix,
                        List.of()));
                limiter.check();
                server.withCommands(commands -> commands.clientPause(500));
                long start = System.nanoTime();
                CompletableFuture<Decision> decision = limiter.tryAcquireAsync("paused", "k", this.threePerMinute)
                    .toCompletableFuture();
                long returnedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(decision).isNotDone();
                assertThat(returnedAfterMillis).isLessThan(200);
                assertThat(join(decision).allowed()).isTrue();
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(300);
            }
            finally {
                connection.destroy();
            }
        }
    }

    @Test
    void failsWithTheDataAccessExceptionWhenRedisIsDownAndRecovers() {
        EmbeddedRedis server = EmbeddedRedis.start();
        // as the starter's own connection: a short timeout, and commands refused while disconnected
        Duration timeout = Duration.ofMillis(500);
        LettuceConnectionFactory connection = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(server.host(), server.port()),
                LettuceClientConfiguration.builder()
                    .commandTimeout(timeout)
                    .clientOptions(ClientOptions.builder()
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .timeoutOptions(TimeoutOptions.enabled(timeout))
                        .build())
                    .build());
        connection.afterPropertiesSet();
        connection.start();
        List<RuntimeException> errors = new CopyOnWriteArrayList<>();
        RateLimitListener listener = new RateLimitListener() {
            @Override
            public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
                errors.add(error);
            }
        };
        try {
            RedisRateLimiter limiter = this.closing.add(
                    Limiters.of(new StringRedisTemplate(connection), this.prefix,
                    List.of(listener)));
            limiter.check();
            assertThat(join(limiter.tryAcquireAsync("down", "k", this.threePerMinute)).allowed()).isTrue();
            server.kill();
            CompletableFuture<Decision> failed = limiter.tryAcquireAsync("down", "k", this.threePerMinute)
                .toCompletableFuture();
            assertThat(failed).failsWithin(Duration.ofSeconds(2))
                .withThrowableOfType(ExecutionException.class)
                .havingCause()
                .isInstanceOf(DataAccessException.class);
            assertThat(errors).singleElement().isInstanceOf(DataAccessException.class);
        }
        finally {
            connection.destroy();
            server.close();
        }
    }

    @Test
    void reloadsTheScriptAfterRedisLostIt(EmbeddedRedis server) {
        LettuceConnectionFactory connection = server.newConnectionFactory();
        try {
            RedisRateLimiter limiter = this.closing.add(
                    Limiters.of(new StringRedisTemplate(connection), this.prefix,
                    List.of()));
            assertThat(join(limiter.tryAcquireAsync("flushed", "k", this.threePerMinute)).count()).isEqualTo(1);
            server.withCommands(commands -> commands.scriptFlush());
            assertThat(join(limiter.tryAcquireAsync("flushed", "k", this.threePerMinute)).count()).isEqualTo(2);
        }
        finally {
            connection.destroy();
        }
    }

    @Test
    void anInvalidRequestFailsTheStageRatherThanThrowing() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        assertThat(limiter.tryAcquireAsync("no spaces", "k", this.threePerMinute).toCompletableFuture())
            .failsWithin(Duration.ofSeconds(1))
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMonoDecidesOncePerSubscriptionAndNotBefore() {
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        ReactiveRateLimiter reactive = new ReactiveRateLimiter(limiter);
        Mono<Decision> decision = reactive.tryAcquire("mono", "k", Limit.of(2, Duration.ofMinutes(1)));
        assertThat(redis.hasKey(this.prefix + "{mono:k}")).as("nothing counted before a subscription").isFalse();
        StepVerifier.create(decision).assertNext(first -> assertThat(first.count()).isEqualTo(1)).verifyComplete();
        StepVerifier.create(decision).assertNext(second -> assertThat(second.count()).isEqualTo(2)).verifyComplete();
        StepVerifier.create(decision).assertNext(third -> assertThat(third.allowed()).isFalse()).verifyComplete();
    }

    private static Decision join(CompletionStage<Decision> decision) {
        return decision.toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }

    private static long scriptCalls(EmbeddedRedis server) {
        return server.commandCalls().getOrDefault("evalsha", 0L) + server.commandCalls().getOrDefault("eval", 0L);
    }

}
