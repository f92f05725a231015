package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.github.limiter.internal.transport.LettuceTimeouts;
import io.github.limiter.internal.transport.ScriptRunner;
import io.lettuce.core.ClientOptions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A decision Redis makes after its call timed out: the caller still gets its failure within the
 * timeout, and the listeners hear the decision once, as late; its refusal is remembered. Admin reads
 * keep the timeout. A reply later than the late window is lost, and says so once.
 */
class LateRepliesIntegrationTests {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    /** What a busy machine may add to a deadline. */
    private static final long MARGIN_MS = 400;

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "late-" + UUID.randomUUID() + ":";

    // the second call raises the alert, the third starts the ban
    private final Limit banOnThird = Limit.of(2, Duration.ofMinutes(1)).withAlertAt(1).withBanFor(Duration.ofMinutes(15));

    private final Recorder recorder = new Recorder();

    private EmbeddedRedis server;

    private LettuceConnectionFactory connection;

    @BeforeEach
    void start() {
        this.server = EmbeddedRedis.start();
    }

    @AfterEach
    void stop() {
        if (this.connection != null) {
            this.connection.destroy();
        }
        this.server.close();
    }

    @ParameterizedTest(name = "max batch {0}")
    @ValueSource(ints = { 64, 1 })
    void aBanRedisStartsAfterItsCallTimedOutIsReportedOnceAsLateAndRefusedFromMemory(int maxBatch) {
        RedisRateLimiter limiter = limiter(ScriptRunner.LATE_REPLY_WINDOW, maxBatch);
        LimitRequest mallory = LimitRequest.of("late", "mallory", this.banOnThird);
        limiter.tryAcquire(List.of(mallory));
        assertThat(limiter.tryAcquire(List.of(mallory)).alertRaised()).isTrue();

        pauseRedis(800);
        long start = System.nanoTime();
        assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> limiter.tryAcquire(List.of(mallory)));
        assertThat(millisSince(start)).as("the caller waits at most the timeout").isLessThan(200 + MARGIN_MS);
        // an admin read keeps the timeout: only the decision script waits for the late window
        long adminStart = System.nanoTime();
        assertThatExceptionOfType(DataAccessException.class)
            .isThrownBy(() -> limiter.state("late", "mallory", this.banOnThird));
        assertThat(millisSince(adminStart)).as("an admin read during the pause, ms").isLessThan(200 + MARGIN_MS);

        assertThat(await(Duration.ofSeconds(5), () -> !this.recorder.late.isEmpty())).as("told late").isTrue();
        assertThat(this.recorder.late).singleElement().satisfies(decision -> {
            assertThat(decision.banStarted()).isTrue();
            assertThat(decision.key()).isEqualTo("mallory");
        });
        assertThat(this.recorder.decisions).as("on time").noneMatch(Decision::banStarted);
        assertThat(this.recorder.errors).as("the timed-out call's error").hasSize(1);

        long scripts = this.server.commandCalls().getOrDefault("evalsha", 0L);
        Decision refused = limiter.tryAcquire(List.of(mallory));
        assertThat(refused.banned()).isTrue();
        assertThat(this.server.commandCalls().getOrDefault("evalsha", 0L)).as("refused from memory, no script")
            .isEqualTo(scripts);
        assertThat(this.recorder.late).as("reported once").hasSize(1);
    }

    @Test
    void aReplyLaterThanTheLateWindowIsLostAndLoggedOnce() {
        RedisRateLimiter limiter = limiter(Duration.ofMillis(300), 64);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger logger = (Logger) LoggerFactory.getLogger(RedisRateLimiter.class);
        logger.addAppender(log);
        try {
            LimitRequest trudy = LimitRequest.of("late", "trudy", this.banOnThird);
            limiter.tryAcquire(List.of(trudy));
            limiter.tryAcquire(List.of(trudy));
            pauseRedis(1500);
            assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> limiter.tryAcquire(List.of(trudy)));
            assertThat(await(Duration.ofSeconds(5), () -> log.list.stream()
                .anyMatch(event -> event.getFormattedMessage().contains("got no reply to a decision"))))
                .as("the loss is logged").isTrue();
            // Redis ran the script after the window: the ban holds, unreported
            assertThat(await(Duration.ofSeconds(5), () -> banned(limiter, "trudy"))).isTrue();
            assertThat(this.recorder.late).isEmpty();
            assertThat(log.list.stream().filter(event -> event.getFormattedMessage().contains("got no reply")))
                .hasSize(1);
        }
        finally {
            logger.detachAppender(log);
        }
    }

    /** Whether the key is banned; {@code false} while Redis does not answer. */
    private static boolean banned(RedisRateLimiter limiter, String key) {
        try {
            return limiter.isBanned("late", key);
        }
        catch (DataAccessException ex) {
            return false;
        }
    }

    private RedisRateLimiter limiter(Duration lateWindow, int maxBatch) {
        // as the starter's own connection: commands refused while disconnected, the limiter's timeouts
        this.connection = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(this.server.host(), this.server.port()),
                LettuceClientConfiguration.builder()
                    .commandTimeout(Duration.ofSeconds(2))
                    .clientOptions(ClientOptions.builder()
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .timeoutOptions(LettuceTimeouts.options(TIMEOUT, lateWindow))
                        .build())
                    .build());
        this.connection.afterPropertiesSet();
        this.connection.start();
        RedisRateLimiter limiter = this.closing.add(
                Limiters.of(new StringRedisTemplate(this.connection), this.prefix,
                List.of(this.recorder), new LocalRefusals(100, Duration.ofMinutes(1)), maxBatch));
        limiter.check();
        return limiter;
    }

    /** Holds every client's commands for a while, from a connection of its own. */
    private void pauseRedis(long millis) {
        this.server.withCommands(commands -> commands.clientPause(millis));
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static boolean await(Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return true;
    }

    private static final class Recorder implements RateLimitListener {

        final List<Decision> decisions = new CopyOnWriteArrayList<>();

        final List<Decision> late = new CopyOnWriteArrayList<>();

        final List<RuntimeException> errors = new CopyOnWriteArrayList<>();

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decided, Decision binding,
                Duration latency) {
            this.decisions.addAll(decided);
        }

        @Override
        public void onLateDecision(List<LimitRequest> requests, List<Decision> decided) {
            this.late.addAll(decided);
        }

        @Override
        public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
            this.errors.add(error);
        }

    }

}
