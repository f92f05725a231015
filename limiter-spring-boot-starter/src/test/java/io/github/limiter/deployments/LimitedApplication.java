package io.github.limiter.deployments;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.redis.RedisRateLimiter;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * An application with limiter in a context of its own, configured only by Spring Boot properties
 * and the configuration classes a test adds, as a user's would be. Its keys start with a prefix of
 * its own, so a test can find them on the server it expects them on.
 */
final class LimitedApplication implements AutoCloseable {

    /** The calls {@link Calls} allows per user and window, on each of its limits. */
    static final int MAX = 3;

    private static final String LIMIT = "deployment";

    private static final String KEY_PREFIX = "limiter.key-prefix=";

    private final ConfigurableApplicationContext context;

    private final String keyPrefix;

    private LimitedApplication(ConfigurableApplicationContext context, String keyPrefix) {
        this.context = context;
        this.keyPrefix = keyPrefix;
    }

    /**
     * Starts an application with the given {@code name=value} properties and, besides its own,
     * the given configuration classes.
     */
    static LimitedApplication start(List<Class<?>> configurations, String... properties) {
        // instances of one deployment share a prefix when the test gives one
        String keyPrefix = Arrays.stream(properties)
            .filter(property -> property.startsWith(KEY_PREFIX))
            .map(property -> property.substring(KEY_PREFIX.length()))
            .findFirst()
            .orElse("deployments-" + UUID.randomUUID() + ":");
        List<String> arguments = new ArrayList<>(List.of("--" + KEY_PREFIX + keyPrefix));
        for (String property : properties) {
            if (!property.startsWith(KEY_PREFIX)) {
                arguments.add("--" + property);
            }
        }
        List<Class<?>> sources = new ArrayList<>(configurations);
        sources.add(App.class);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run(arguments.toArray(String[]::new));
        return new LimitedApplication(context, keyPrefix);
    }

    static LimitedApplication start(String... properties) {
        return start(List.of(), properties);
    }

    /** A call to a limit that follows {@code limiter.redis.on-failure}: allowed when Redis cannot decide. */
    void call(String user) {
        this.context.getBean(Calls.class).call(user);
    }

    /** A call to a limit that refuses when Redis cannot decide. */
    void callDenyingOnFailure(String user) {
        this.context.getBean(Calls.class).callDenyingOnFailure(user);
    }

    /** The Redis key of {@link #call}'s count for {@code user}. */
    String countKey(String user) {
        return this.keyPrefix + '{' + LIMIT + ':' + user + '}';
    }

    /** Whether the limiter reaches its Redis, as its health indicator reports it. */
    Status limiterHealth() {
        return this.context.getBean("limiterHealthIndicator", HealthIndicator.class).health().getStatus();
    }

    /** The details of one probe of the limiter's health indicator. */
    Map<String, Object> limiterHealthDetails() {
        return this.context.getBean("limiterHealthIndicator", HealthIndicator.class).health().getDetails();
    }

    RedisRateLimiter limiter() {
        return this.context.getBean(RedisRateLimiter.class);
    }

    /** Whether the limiter hears unbans and resets from other instances. */
    boolean subscribed() {
        return this.context.getBean(RedisRateLimiter.class).health().hearsOtherInstances();
    }

    /** The application's own template, on the application's connection factory. */
    StringRedisTemplate applicationTemplate() {
        return this.context.getBean(StringRedisTemplate.class);
    }

    @Override
    public void close() {
        this.context.close();
    }

    /**
     * Scans no components, so that the configuration classes of one test do not reach another's
     * application.
     */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Calls.class)
    static class App {

    }

    @Service
    static class Calls {

        @RateLimit(name = LIMIT, key = "#user", window = "1m", max = MAX)
        public void call(String user) {
        }

        @RateLimit(name = LIMIT + "-denying", key = "#user", window = "1m", max = MAX, onFailure = OnFailure.DENY)
        public void callDenyingOnFailure(String user) {
        }

    }

}
