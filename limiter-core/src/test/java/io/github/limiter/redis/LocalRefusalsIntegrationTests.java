package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.Closer;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.internal.refusals.LocalRefusals;
import io.github.limiter.internal.refusals.InvalidationSubscription;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.backoff.FixedBackOff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

@WithRedis
class LocalRefusalsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "local-" + UUID.randomUUID() + ":";

    private final Limit banning = Limit.of(2, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(10));

    @Test
    void aBannedKeyIsRefusedWithoutAnyRedisCommand() {
        RedisRateLimiter limiter = limiter(new LocalRefusals(100, Duration.ofHours(1)));
        for (int call = 0; call < 3; call++) {
            limiter.tryAcquire("hot", "bot", this.banning);
        }
        long before = scriptCalls();
        for (int call = 0; call < 1000; call++) {
            Decision decision = limiter.tryAcquire("hot", "bot", this.banning);
            assertThat(decision.outcome()).isEqualTo(Outcome.BANNED);
            assertThat(decision.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(10));
        }
        assertThat(scriptCalls() - before).as("scripts run for 1000 refused calls").isZero();
        assertThat(limiter.tryAcquire("hot", "someone-else", this.banning).allowed()).isTrue();
    }

    @Test
    void refusalsFromMemoryReportTheRetryAfterAndResetRedisWouldReport() {
        // the memory trusts an entry 300 ms, the ban lasts 15 minutes: the answer is the ban's
        LocalRefusals memory = new LocalRefusals(100, Duration.ofMillis(300));
        RedisRateLimiter limiter = limiter(memory);
        Limit longBan = Limit.of(2, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(15));
        for (int call = 0; call < 3; call++) {
            limiter.tryAcquire("long-ban", "crawler", longBan);
        }
        List<String> keys = RedisKeys.of(this.prefix, "long-ban", "crawler", false);
        long before = scriptCalls();
        int refusals = 0;
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1200);
        while (System.nanoTime() < until) {
            Decision decision = limiter.tryAcquire("long-ban", "crawler", longBan);
            long banLeft = redis.getExpire(keys.get(1), TimeUnit.MILLISECONDS);
            long windowLeft = redis.getExpire(keys.get(0), TimeUnit.MILLISECONDS);
            assertThat(decision.outcome()).isEqualTo(Outcome.BANNED);
            assertThat(decision.retryAfter().toMillis()).as("retry-after, ms").isCloseTo(banLeft, within(1000L));
            assertThat(decision.resetAfter().toMillis()).as("reset, ms").isCloseTo(windowLeft, within(1000L));
            refusals++;
        }
        assertThat(scriptCalls() - before).as("scripts for " + refusals + " refusals, mostly from memory")
            .isBetween(1L, refusals / 10L);
    }

    @Test
    void noRefusalIsRememberedWhileUnbansCannotReachThisInstance() {
        LocalRefusals memory = new LocalRefusals(100, Duration.ofHours(1));
        RedisRateLimiter limiter = limiter(memory);
        // as before the first subscription: nothing is remembered, every refusal asks Redis
        memory.listening(false);
        for (int call = 0; call < 3; call++) {
            limiter.tryAcquire("unheard", "bot", this.banning);
        }
        long before = scriptCalls();
        for (int call = 0; call < 5; call++) {
            assertThat(limiter.tryAcquire("unheard", "bot", this.banning).banned()).isTrue();
        }
        assertThat(scriptCalls() - before).as("every refusal asked Redis").isEqualTo(5);
        assertThat(memory.size()).isZero();
        assertThat(limiter.health().remembersRefusals()).isFalse();

        memory.listening(true);
        limiter.tryAcquire("unheard", "bot", this.banning);
        before = scriptCalls();
        assertThat(limiter.tryAcquire("unheard", "bot", this.banning).banned()).isTrue();
        assertThat(scriptCalls()).as("refused from memory once subscribed").isEqualTo(before);

        // the subscription drops (Redis itself may be down): what was remembered still refuses
        memory.listening(false);
        assertThat(limiter.tryAcquire("unheard", "bot", this.banning).banned()).isTrue();
        assertThat(scriptCalls()).as("still refused from memory").isEqualTo(before);
        memory.listening(true);
        assertThat(memory.size()).as("forgotten when subscribed again: messages may have been missed").isZero();
    }

    @Test
    void anOverLimitKeyIsRefusedFromMemoryUntilItsRetryInstant() {
        RedisRateLimiter limiter = limiter(new LocalRefusals(100, Duration.ofHours(1)));
        Limit tiny = Limit.of(1, Duration.ofMillis(200));
        // windows are periods of Redis's clock: the two calls start where one window has room for both
        FixedWindows.awaitRoom(redis, Duration.ofMillis(200), Duration.ofMillis(150));
        limiter.tryAcquire("tiny", "k", tiny);
        Decision rejected = limiter.tryAcquire("tiny", "k", tiny);
        assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
        long before = scriptCalls();
        assertThat(limiter.tryAcquire("tiny", "k", tiny).allowed()).isFalse();
        assertThat(scriptCalls()).isEqualTo(before);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Decision later;
        do {
            later = limiter.tryAcquire("tiny", "k", tiny);
        }
        while (!later.allowed() && System.nanoTime() < deadline);
        assertThat(later.allowed()).as("allowed again once the window ends").isTrue();
    }

    @Test
    void aCallTakingFewerPermitsStillAsksRedis() {
        RedisRateLimiter limiter = limiter(new LocalRefusals(100, Duration.ofHours(1)));
        Limit limit = Limit.of(5, Duration.ofMinutes(1));
        limiter.tryAcquire(List.of(new LimitRequest("weighted", "k", limit, 3)));
        assertThat(limiter.tryAcquire(List.of(new LimitRequest("weighted", "k", limit, 3))).allowed()).isFalse();
        assertThat(limiter.tryAcquire(List.of(new LimitRequest("weighted", "k", limit, 2))).allowed()).isTrue();
    }

    @Test
    void remembersAtMostMaxEntriesAndAtMostTheLongestTime() {
        LocalRefusals local = new LocalRefusals(5, Duration.ofMillis(50));
        RedisRateLimiter limiter = limiter(local);
        for (int key = 0; key < 10; key++) {
            for (int call = 0; call < 3; call++) {
                limiter.tryAcquire("bounded", "k" + key, this.banning);
            }
        }
        assertThat(local.size()).isLessThanOrEqualTo(5);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long before = scriptCalls();
        while (scriptCalls() == before && System.nanoTime() < deadline) {
            limiter.tryAcquire("bounded", "k0", this.banning);
        }
        assertThat(scriptCalls()).as("asks Redis again after the longest time").isGreaterThan(before);
        assertThat(limiter.tryAcquire("bounded", "k0", this.banning).banned()).as("and is still banned").isTrue();
    }

    @Test
    void anUnbanOnOneInstanceClearsTheRefusalOnEveryInstance(EmbeddedRedis server) throws Exception {
        LettuceConnectionFactory otherConnection = server.newConnectionFactory();
        LocalRefusals otherMemory = new LocalRefusals(100, Duration.ofHours(1));
        RedisRateLimiter admin = limiter(new LocalRefusals(100, Duration.ofHours(1)));
        RedisRateLimiter other = this.closing.add(
                Limiters.of(new StringRedisTemplate(otherConnection), this.prefix, List.of(),
                otherMemory));
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(otherConnection);
        container.afterPropertiesSet();
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.initialize();
        InvalidationSubscription subscription = new InvalidationSubscription(container,
                other.invalidationChannel(), otherMemory, other::permissionMessage,
                new FixedBackOff(100, FixedBackOff.UNLIMITED_ATTEMPTS), scheduler);
        subscription.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!subscription.isSubscribed() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            for (int call = 0; call < 3; call++) {
                other.tryAcquire("shared", "mallory", this.banning);
            }
            assertThat(otherMemory.size()).isEqualTo(1);
            assertThat(admin.unban("shared", "mallory")).isTrue();
            while (otherMemory.size() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(otherMemory.size()).as("forgotten on the other instance").isZero();
            assertThat(other.tryAcquire("shared", "mallory", this.banning).allowed()).isTrue();
        }
        finally {
            subscription.stop();
            scheduler.shutdown();
            container.destroy();
            otherConnection.destroy();
        }
    }

    @Test
    void aLimiterBuiltToHearTheOthersSubscribesOnceItsConnectionOpensAndUntilItStops(EmbeddedRedis server) {
        LettuceConnectionFactory otherConnection = server.newConnectionFactory();
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.initialize();
        RedisRateLimiter admin = limiter(new LocalRefusals(100, Duration.ofHours(1)));
        try (RedisRateLimiter other = hearingOthers(otherConnection, scheduler)) {
            assertThat(other.health().subscribes()).isTrue();
            other.start();
            assertThat(other.isRunning()).isTrue();
            // its check has not passed yet: the first attempt, once run, waits for it, and
            // nothing is remembered meanwhile
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            awaitFirstAttempt(scheduler, deadline);
            assertThat(scheduler.getScheduledThreadPoolExecutor().getCompletedTaskCount()).isPositive();
            assertThat(other.health().hearsOtherInstances()).as("subscribed before its connection opened").isFalse();
            assertThat(other.health().remembersRefusals()).isFalse();
            other.check();
            while (!other.health().hearsOtherInstances() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(other.health().hearsOtherInstances()).as("subscribed once its connection opened").isTrue();
            assertThat(other.health().remembersRefusals()).isTrue();
            for (int call = 0; call < 3; call++) {
                other.tryAcquire("built", "mallory", this.banning);
            }
            assertThat(other.localRefusals.size()).isEqualTo(1);
            assertThat(admin.unban("built", "mallory")).isTrue();
            while (other.localRefusals.size() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(other.localRefusals.size()).as("forgotten on the other instance").isZero();
            other.stop();
            assertThat(other.isRunning()).isFalse();
            while (other.health().hearsOtherInstances() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(other.health().hearsOtherInstances()).as("unsubscribed once stopped").isFalse();
            assertThat(other.health().remembersRefusals()).isFalse();
        }
        finally {
            scheduler.shutdown();
            otherConnection.destroy();
        }
    }

    @Test
    void aCostGivenBackOnOneInstanceEndsTheRefusalAnotherRemembers(EmbeddedRedis server) {
        LettuceConnectionFactory otherConnection = server.newConnectionFactory();
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.initialize();
        RedisRateLimiter settling = limiter(new LocalRefusals(100, Duration.ofHours(1)));
        try (RedisRateLimiter other = hearingOthers(otherConnection, scheduler)) {
            // started before it could reach Redis, as an instance started during an outage
            other.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            awaitFirstAttempt(scheduler, deadline);
            assertThat(other.health().hearsOtherInstances()).isFalse();
            other.check();
            while (!other.health().hearsOtherInstances() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(other.health().hearsOtherInstances()).isTrue();
            FixedWindows.awaitRoom(redis, Duration.ofHours(1), Duration.ofSeconds(30));
            LimitRequest one = LimitRequest.of("settled", "mallory", Limit.of(1, Duration.ofHours(1)));
            Decision decided = settling.tryAcquire(List.of(one));
            assertThat(other.tryAcquire(List.of(one)).allowed()).isFalse();
            assertThat(other.localRefusals.size()).as("remembered on the other instance").isEqualTo(1);
            assertThat(settling.settleAsync(one, decided, 0, Duration.ZERO).toCompletableFuture().join()).isTrue();
            // a deadline of its own: awaitRoom may have waited out the first one near the end of an hour
            long heard = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (other.localRefusals.size() > 0 && System.nanoTime() < heard) {
                Thread.onSpinWait();
            }
            assertThat(other.localRefusals.size()).as("forgotten on the other instance").isZero();
            assertThat(other.tryAcquire(List.of(one)).allowed()).as("Redis asked again: room").isTrue();
        }
        finally {
            scheduler.shutdown();
            otherConnection.destroy();
        }
    }

    @Test
    void eachLimiterIsStartedAndStoppedOnItsOwn() {
        RedisRateLimiter one = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        RedisRateLimiter other = this.closing.add(Limiters.of(redis, this.prefix, List.of()));
        one.start();
        assertThat(one.isRunning()).isTrue();
        assertThat(other.isRunning()).as("not started").isFalse();
        one.stop();
        assertThat(one.isRunning()).isFalse();
    }

    /** A limiter that hears the other instances over its own connection, once its check passed. */
    private RedisRateLimiter hearingOthers(LettuceConnectionFactory connection, ThreadPoolTaskScheduler scheduler) {
        return RedisRateLimiter.builder(new StringRedisTemplate(connection))
            .keyPrefix(this.prefix)
            .localCache(100, Duration.ofHours(1))
            .invalidations(connection, Duration.ofSeconds(5), new FixedBackOff(100, FixedBackOff.UNLIMITED_ATTEMPTS),
                    scheduler.getScheduledExecutor())
            .build();
    }

    /** Returns once the first attempt to subscribe has run, or the deadline passed. */
    private static void awaitFirstAttempt(ThreadPoolTaskScheduler scheduler, long deadline) {
        while (scheduler.getScheduledThreadPoolExecutor().getCompletedTaskCount() < 1 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    private RedisRateLimiter limiter(LocalRefusals local) {
        return this.closing.add(Limiters.of(redis, this.prefix, List.of(), local));
    }

    /** How many scripts Redis has run, from its own command statistics. */
    private static long scriptCalls() {
        return redis.execute((RedisCallback<Long>) connection -> {
            Properties stats = connection.serverCommands().info("commandstats");
            long calls = 0;
            for (String command : List.of("cmdstat_evalsha", "cmdstat_eval")) {
                String value = stats.getProperty(command);
                if (value != null) {
                    calls += Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1"));
                }
            }
            return calls;
        });
    }

}
