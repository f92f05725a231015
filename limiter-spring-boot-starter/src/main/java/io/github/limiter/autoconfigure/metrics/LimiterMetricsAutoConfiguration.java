package io.github.limiter.autoconfigure.metrics;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.internal.RedisServerSettings;
import io.github.limiter.redis.RedisRateLimiter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for limiter's decisions, when Micrometer is on the classpath and the
 * application has a {@link MeterRegistry}.
 *
 * @since 0.1.0
 */
// by name, so that one class serves every Spring Boot generation: Boot 4's, then Boot 3's
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration" },
        before = LimiterAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
public final class LimiterMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitMetrics rateLimitMetrics(MeterRegistry registry) {
        return new RateLimitMetrics(registry);
    }

    /**
     * {@code limiter.invalidations.subscribed}: 1 while unbans and resets from other instances reach
     * this one, 0 while they do not (keys are then not refused from memory). Bound once every
     * singleton exists, so only where the limiter subscribes to other instances.
     */
    @Bean
    MeterBinder limiterInvalidationsMeter(ObjectProvider<RedisRateLimiter> rateLimiter) {
        return registry -> rateLimiter.ifAvailable(available -> {
            if (available.health().subscribes()) {
                Gauge.builder("limiter.invalidations.subscribed", available, it -> it.health().hearsOtherInstances() ? 1 : 0)
                    .description("Whether unbans and resets from other instances reach this one (1) or not (0)")
                    .register(registry);
            }
        });
    }

    /**
     * {@code limiter.redis.evictions}: the keys the limiter's Redis evicted (all masters of a
     * cluster), as Redis reports them, read with the policy at most once per 10 s rather than per
     * scrape. A key evicted may be a ban lifted or a count reset.
     */
    @Bean
    MeterBinder limiterRedisEvictionsMeter(ObjectProvider<RedisServerSettings> settings) {
        return registry -> settings.ifAvailable(available -> FunctionCounter
            .builder("limiter.redis.evictions", available, RedisServerSettings::evictedKeys)
            .description("Keys the limiter's Redis evicted when full (INFO stats evicted_keys): bans lifted and "
                    + "counts reset, if they were the limiter's")
            .register(registry));
    }

}
