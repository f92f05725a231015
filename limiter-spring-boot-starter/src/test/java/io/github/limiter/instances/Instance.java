package io.github.limiter.instances;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RedisRateLimiter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Service;

/**
 * One application instance with limiter, in a context of its own, on a Redis given by port: what a
 * server of a fleet is, for tests of many instances sharing one Redis.
 */
final class Instance implements AutoCloseable {

    static final String CRAWL = "crawl";

    private final ConfigurableApplicationContext context;

    private Instance(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** Starts an instance on {@code 127.0.0.1:port}, whether or not a Redis listens there yet. */
    static Instance start(int port, String keyPrefix, String... properties) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        List<String> arguments = new ArrayList<>(List.of("--spring.main.banner-mode=off",
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + port,
                "--limiter.key-prefix=" + keyPrefix));
        for (String property : properties) {
            arguments.add("--" + property);
        }
        return new Instance(application.run(arguments.toArray(String[]::new)));
    }

    /** One read of the crawl-limited method: whether it was allowed (Redis down counts as allowed). */
    boolean crawl(String user) {
        try {
            this.context.getBean(Calls.class).crawl(user);
            return true;
        }
        catch (RateLimitExceededException ex) {
            return false;
        }
    }

    /** Waits until this instance's recent alerts and bans are written (a script of their own). */
    void awaitRecentEventsWritten() {
        if (!this.context.getBean(RedisRateLimiter.class).awaitRecentEventsWritten(Duration.ofSeconds(5))) {
            throw new IllegalStateException("Recent events not written within 5 s");
        }
    }

    RedisRateLimiter limiter() {
        return this.context.getBean(RedisRateLimiter.class);
    }

    boolean subscribed() {
        return this.context.getBean(RedisRateLimiter.class).health().hearsOtherInstances();
    }

    Status health() {
        return limiterHealth().getStatus();
    }

    Health limiterHealth() {
        return this.context.getBean("limiterHealthIndicator", HealthIndicator.class).health();
    }

    /** The details of one health probe. */
    Map<String, Object> healthDetails() {
        return this.context.getBean("limiterHealthIndicator", HealthIndicator.class).health().getDetails();
    }

    MeterRegistry meters() {
        return this.context.getBean(MeterRegistry.class);
    }

    <T> T bean(Class<T> type) {
        return this.context.getBean(type);
    }

    @Override
    public void close() {
        this.context.close();
    }

    /**
     * Polls {@code condition} until it holds, for {@code within} at most, and returns how long it
     * took; fails if it never held.
     */
    static Duration await(Duration within, String what, BooleanSupplier condition) {
        long start = System.nanoTime();
        long deadline = start + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Not within " + within.toMillis() + " ms: " + what);
            }
            // a millisecond between checks: close enough to measure, far from a busy loop on 2 cores
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @SpringBootApplication
    @Import(Calls.class)
    static class App {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        /**
         * With {@code test.freeze-redis=<seconds>}, Redis answers nothing for that long from just
         * before the limiter opens its first connection, as on a busy host: this callback runs
         * before the starter's, since the application's beans are registered first.
         */
        @Bean
        FreezeRedisBeforeTheLimiterConnects freezeRedisBeforeTheLimiterConnects(Environment environment) {
            return new FreezeRedisBeforeTheLimiterConnects(environment);
        }

    }

    static final class FreezeRedisBeforeTheLimiterConnects implements SmartInitializingSingleton, DisposableBean {

        private final Environment environment;

        private SlowRedisIntegrationTests.@Nullable Freeze freeze;

        FreezeRedisBeforeTheLimiterConnects(Environment environment) {
            this.environment = environment;
        }

        @Override
        public void afterSingletonsInstantiated() {
            Double seconds = this.environment.getProperty("test.freeze-redis", Double.class);
            if (seconds != null) {
                this.freeze = SlowRedisIntegrationTests.Freeze.of(
                        this.environment.getRequiredProperty("spring.data.redis.host"),
                        this.environment.getRequiredProperty("spring.data.redis.port", Integer.class), seconds);
            }
        }

        @Override
        public void destroy() {
            if (this.freeze != null) {
                this.freeze.close();
            }
        }

    }

    @Service
    static class Calls {

        @RateLimit(name = CRAWL, key = "#user", window = "1m", max = 3, banFor = "15m")
        public void crawl(String user) {
        }

    }

}
