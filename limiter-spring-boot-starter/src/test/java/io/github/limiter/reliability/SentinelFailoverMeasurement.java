package io.github.limiter.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.limiter.Limit;
import io.github.limiter.RateLimiter;
import io.github.limiter.test.EmbeddedRedisSentinel;
import io.github.limiter.test.SentinelEvents;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.awaitility.Awaitility.await;

/**
 * Measures the calls a failover lets through beyond their limits, with two application instances
 * on one Sentinel set-up: not a test (its name keeps it out of the build's runs), but a program to
 * run by name, whose figures are in docs/operations.md:
 * {@code ./mvnw -B -q -pl limiter-spring-boot-starter -am verify -Dtest=SentinelFailoverMeasurement
 * -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.javadoc.skip=true} (each surefire execution of
 * the starter runs it: twice with Lettuce, twice with Jedis).
 *
 * <p>Four threads, two on each instance, call at 4,000 calls a second in all, in turn over 3,000
 * keys with a limit of 20 calls in 10 minutes: each key gets a call every 0.75 s. After 3 s, the
 * master is replaced: by {@code SENTINEL FAILOVER} (planned), or by SIGKILL (unplanned, the
 * sentinels notice after 1 s). Calls go on until 20 s after the switch is over (the old master
 * resynced, or the switch announced when it was killed), long enough for every key to reach its
 * limit on the new master. An exact limiter allows each key its first 20 calls: every allowed call
 * beyond that is an over-admission. A call that fails is allowed, as {@code on-failure: allow}
 * (the default) does, and counted as an error.
 */
class SentinelFailoverMeasurement {

    private static final int KEYS = 3000;

    private static final int MAX = 20;

    private static final int THREADS_PER_INSTANCE = 2;

    private static final int CALLS_PER_SECOND = 4000;

    @Test
    void plannedFailover() throws Exception {
        measure(false);
    }

    @Test
    void masterKilled() throws Exception {
        measure(true);
    }

    private void measure(boolean kill) throws Exception {
        String prefix = "measure-" + UUID.randomUUID() + ":";
        try (EmbeddedRedisSentinel redis = EmbeddedRedisSentinel.start(2);
                ConfigurableApplicationContext a = SentinelFailoverIntegrationTests.start(redis, prefix);
                ConfigurableApplicationContext b = SentinelFailoverIntegrationTests.start(redis, prefix);
                SentinelEvents events = redis.listen();
                Calls calls = new Calls(a.getBean(RateLimiter.class), b.getBean(RateLimiter.class))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> calls.seconds() >= 3);
            double replaced = calls.seconds();
            if (kill) {
                redis.servers().get(0).kill();
            }
            else {
                redis.failover();
            }
            SentinelEvents.Event announced = events.awaitSwitch();
            double switched = (announced.nanoTime() - calls.start) / 1e9;
            if (!kill) {
                redis.awaitReplicaOf(0, 1);
            }
            double over = calls.seconds();
            await().atMost(Duration.ofSeconds(40)).until(() -> calls.seconds() >= over + 20);
            calls.stop();
            int overAdmitted = 0;
            int keysOver = 0;
            for (int key = 0; key < KEYS; key++) {
                int beyond = calls.allowed.get(key) - Math.min(calls.made.get(key), MAX);
                if (beyond > 0) {
                    overAdmitted += beyond;
                    keysOver++;
                }
            }
            System.out.printf("MEASURED %s, %s failover: %d over-admissions on %d of %d keys; %d errors (%s);"
                    + " master replaced at %.2f s, switch announced at %.2f s, over at %.2f s; %d calls in %.1f s"
                    + " (%d a second); exact limiter: %d allowed%n",
                    a.getBean(RedisConnectionFactory.class).getClass().getSimpleName(),
                    kill ? "unplanned (SIGKILL)" : "planned", overAdmitted, keysOver, KEYS, calls.errors.get(),
                    calls.errorWindow(), replaced, switched, over, calls.total(), calls.seconds(),
                    Math.round(calls.total() / calls.seconds()), KEYS * MAX);
            System.out.println("MEASURED sentinel events (s since listening):\n" + events);
            if (announced.newMasterPort() != redis.servers().get(1).port()) {
                throw new IllegalStateException("Unexpected new master: " + announced);
            }
        }
    }

    /** Paced calls over the keys, in turn, with what each key was allowed. */
    private static final class Calls implements AutoCloseable {

        private final long start = System.nanoTime();

        private final AtomicBoolean running = new AtomicBoolean(true);

        private final AtomicIntegerArray made = new AtomicIntegerArray(KEYS);

        private final AtomicIntegerArray allowed = new AtomicIntegerArray(KEYS);

        private final AtomicLong errors = new AtomicLong();

        private final AtomicLong firstError = new AtomicLong(-1);

        private final AtomicLong lastError = new AtomicLong(-1);

        private final AtomicLong next = new AtomicLong();

        private final ExecutorService threads;

        private final List<Future<?>> futures = new ArrayList<>();

        Calls(RateLimiter... limiters) {
            Limit limit = Limit.of(MAX, Duration.ofMinutes(10));
            int threadCount = limiters.length * THREADS_PER_INSTANCE;
            this.threads = Executors.newFixedThreadPool(threadCount);
            long interval = TimeUnit.SECONDS.toNanos(1) * threadCount / CALLS_PER_SECOND;
            for (int i = 0; i < threadCount; i++) {
                RateLimiter limiter = limiters[i % limiters.length];
                this.futures.add(this.threads.submit(() -> {
                    long due = System.nanoTime();
                    while (this.running.get()) {
                        int key = (int) (this.next.getAndIncrement() % KEYS);
                        call(limiter, limit, key);
                        due += interval;
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                    }
                }));
            }
        }

        private void call(RateLimiter limiter, Limit limit, int key) {
            this.made.incrementAndGet(key);
            boolean allowed;
            try {
                allowed = limiter.tryAcquire("quota", "key-" + key, limit).allowed();
            }
            catch (RuntimeException ex) {
                long at = System.nanoTime() - this.start;
                this.errors.incrementAndGet();
                this.firstError.compareAndSet(-1, at);
                this.lastError.set(at);
                allowed = true;
            }
            if (allowed) {
                this.allowed.incrementAndGet(key);
            }
        }

        double seconds() {
            return (System.nanoTime() - this.start) / 1e9;
        }

        long total() {
            return this.next.get();
        }

        String errorWindow() {
            if (this.errors.get() == 0) {
                return "none";
            }
            return String.format("from %.2f to %.2f s", this.firstError.get() / 1e9, this.lastError.get() / 1e9);
        }

        void stop() throws Exception {
            this.running.set(false);
            for (Future<?> future : this.futures) {
                future.get(10, TimeUnit.SECONDS);
            }
        }

        @Override
        public void close() {
            this.running.set(false);
            this.threads.shutdownNow();
        }

    }

}
