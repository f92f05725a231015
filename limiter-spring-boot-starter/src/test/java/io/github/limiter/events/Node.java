package io.github.limiter.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.redis.RedisRateLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * One application instance in a context of its own, counting the alert and ban events it publishes:
 * for tests of many instances on one Redis that check every alert and ban Redis holds against the
 * events the instances published.
 */
final class Node implements AutoCloseable {

    static final String LIMIT_ID = "probe";

    /**
     * A key's second call in a window raises its alert, its third starts its ban. The window is a
     * day: fixed windows are aligned on Redis's clock and a window's alert markers expire at its
     * end, so a test that crossed the end of a minute saw every alert key gone before it compared
     * them with the events; a day's end falls inside a test of seconds almost never.
     */
    static final Limit LIMIT = Limit.of(2, Duration.ofDays(1))
        .withAlertAt(1)
        .withBanFor(Duration.ofMinutes(15));

    private final ConfigurableApplicationContext context;

    private Node(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** Starts an instance on a Redis at {@code host:port}. */
    static Node start(String host, int port, String keyPrefix, String... properties) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        List<String> arguments = new ArrayList<>(List.of("--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + host, "--spring.data.redis.port=" + port,
                "--limiter.key-prefix=" + keyPrefix));
        for (String property : properties) {
            arguments.add("--" + property);
        }
        return new Node(application.run(arguments.toArray(String[]::new)));
    }

    /** One call under {@link #LIMIT}: its decision, or {@code null} if it could not be decided. */
    @Nullable Decision call(String key) {
        try {
            return limiter().tryAcquire(List.of(LimitRequest.of(LIMIT_ID, key, LIMIT)));
        }
        catch (RuntimeException ex) {
            return null;
        }
    }

    /** Whether the instance decides now: Redis reached, scripts loaded. */
    boolean decides() {
        try {
            limiter().tryAcquire("ready", "probe", 1_000_000, Duration.ofMinutes(1));
            return true;
        }
        catch (RuntimeException ex) {
            return false;
        }
    }

    RedisRateLimiter limiter() {
        return this.context.getBean(RedisRateLimiter.class);
    }

    Events events() {
        return this.context.getBean(Events.class);
    }

    double counted(String meter) {
        Counter counter = this.context.getBean(MeterRegistry.class).find(meter).tag("limit", LIMIT_ID).counter();
        return (counter != null) ? counter.count() : 0;
    }

    @Override
    public void close() {
        this.context.close();
    }

    /** Polls until the condition holds, for {@code within} at most; answers whether it held. */
    static boolean await(Duration within, BooleanSupplier condition) {
        return await(within, Duration.ofMillis(5), condition);
    }

    /** Polls every {@code interval} until the condition holds, for {@code within} at most. */
    static boolean await(Duration within, Duration interval, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(interval.toNanos());
        }
        return true;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Events events() {
            return new Events();
        }

    }

    /** The alert and ban events this instance published, counted by key. */
    static final class Events {

        private final Map<String, AtomicInteger> alerts = new ConcurrentHashMap<>();

        private final Map<String, AtomicInteger> bans = new ConcurrentHashMap<>();

        @EventListener
        void alert(RateLimitAlertEvent event) {
            this.alerts.computeIfAbsent(event.key(), key -> new AtomicInteger()).incrementAndGet();
        }

        @EventListener
        void ban(RateLimitBanEvent event) {
            this.bans.computeIfAbsent(event.key(), key -> new AtomicInteger()).incrementAndGet();
        }

        Map<String, Integer> alerts() {
            return snapshot(this.alerts);
        }

        Map<String, Integer> bans() {
            return snapshot(this.bans);
        }

        private static Map<String, Integer> snapshot(Map<String, AtomicInteger> counts) {
            Map<String, Integer> copy = new java.util.TreeMap<>();
            counts.forEach((key, count) -> copy.put(key, count.get()));
            return copy;
        }

    }

}
