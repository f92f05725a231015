package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.autoconfigure.LimiterRedisProperties;
import io.github.limiter.autoconfigure.LimiterLocalCacheProperties;
import io.github.limiter.autoconfigure.RedisRateLimiterBuilderCustomizer;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.observation.DecisionObservationConvention;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.redis.RedisRateLimiterBuilder;
import io.github.limiter.autoconfigure.internal.RedisServerSettings;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;

/**
 * Auto-configuration of the Redis-backed {@link RateLimiter}, on a connection of its own to the
 * Redis of the application's one {@link RedisConnectionFactory}: it publishes alerts and bans as
 * Spring events, keeps the recent ones in Redis, and tells every {@link RateLimitListener} bean
 * about its decisions; each decision an observation in the application's
 * {@link ObservationRegistry}, if it has one. Every {@link RedisRateLimiterBuilderCustomizer} bean
 * adjusts the builder last. Runs before {@link LimiterAutoConfiguration}, whose advisor applies
 * {@code @RateLimit} with the limiter made here; backs off for any {@link RateLimiter} of the
 * application's.
 *
 * @since 0.1.0
 */
// by name, so that one class serves every Spring Boot generation: Boot 4's, then Boot 3's
@AutoConfiguration(before = LimiterAutoConfiguration.class,
        afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
                "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnClass(RateLimiter.class)
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@EnableConfigurationProperties(LimiterProperties.class)
public final class LimiterRedisAutoConfiguration {

    private static final Log logger = LogFactory.getLog(LimiterRedisAutoConfiguration.class);

    @Bean
    LimiterTasks limiterTasks(ObjectProvider<ThreadPoolTaskSchedulerBuilder> builder) {
        return new LimiterTasks(builder.getIfAvailable(ThreadPoolTaskSchedulerBuilder::new));
    }

    @Bean
    LimiterRedisConnection limiterRedisConnection(RedisConnectionFactory connectionFactory,
            LimiterProperties properties, ObjectProvider<RedisStaticMasterReplicaConfiguration> masterReplica,
            BeanFactory beanFactory, LimiterTasks tasks) {
        boolean builtByBoot = BootRedisServers.builtTheFactory(connectionFactory, beanFactory);
        return new LimiterRedisConnection(connectionFactory,
                BootRedisServers.masterReplica(masterReplica.getIfAvailable(), beanFactory, builtByBoot), builtByBoot,
                properties.getRedis(), tasks.scheduler());
    }

    // Declared as RedisRateLimiter so that conditions on it (the health indicator) see it, backing
    // off for any RateLimiter of the application's.
    @Bean
    @ConditionalOnMissingBean(RateLimiter.class)
    RedisRateLimiter rateLimiter(LimiterRedisConnection connection, LimiterProperties properties,
            ObjectProvider<RateLimitListener> listeners, ObjectProvider<ObservationRegistry> observationRegistry,
            ObjectProvider<DecisionObservationConvention> observationConvention,
            ApplicationEventPublisher eventPublisher, LimiterTasks tasks,
            ObjectProvider<RedisRateLimiterBuilderCustomizer> customizers) {
        LimiterLocalCacheProperties localCache = properties.getLocalCache();
        LimiterRedisProperties.Coalescing coalescing = properties.getRedis().getCoalescing();
        // A template of its own, so the application's template customisations cannot change how
        // script arguments and replies are serialised.
        RedisRateLimiterBuilder limiter = RedisRateLimiter.builder(connection.template())
            .keyPrefix(properties.getKeyPrefix())
            .normalizeKeys(properties.isNormalizeKeys())
            .listeners(listeners.orderedStream().toList())
            .maxBatch(coalescing.isEnabled() ? coalescing.getMaxBatch() : 1)
            .publishEvents(eventPublisher, properties.getEventLog().getMaxLines(),
                    properties.getEventLog().getInterval())
            .recentEvents(tasks.executor());
        if (localCache.isEnabled()) {
            // each instance hears the unbans and resets of the others, so that keys refused from
            // memory are forgotten everywhere at once; the subscription waits for the limiter's
            // check to pass, so that it does not hold the connection factory's lock while the
            // connection opens, nor ask Redis for a channel the user may not use
            LimiterRedisProperties redis = properties.getRedis();
            limiter.localCache(localCache.getMaxEntries(), localCache.getMaxTime())
                .invalidations(connection.subscriptionConnectionFactory(),
                        redis.getConnectTimeout().plus(redis.getTimeout()),
                        LimiterRedisConnection.reconnectBackOff(redis), tasks.scheduledExecutor())
                .subscriptionConnectionLost(connection::onPubSubConnectionLost);
        }
        // Each decision becomes an observation where the application observes (Spring Boot's
        // Actuator gives it an ObservationRegistry, with tracing and a timer per observation);
        // without a registry, or with the no-op one, decisions are not observed at all.
        ObservationRegistry registry = observationRegistry.getIfUnique();
        if (registry != null && registry != ObservationRegistry.NOOP) {
            limiter.observations(registry, observationConvention.getIfUnique());
        }
        customizers.orderedStream().forEach((customizer) -> customizer.customize(limiter));
        return limiter.build();
    }

    /**
     * Opens the limiter's first connection and checks the Redis version once the application's
     * beans are ready. A Redis older than 5.0 fails the start with a clear message, one that may
     * evict the limiter's keys is logged or refused, and one without persistence logged (see
     * {@link RedisServerSettings}); one that cannot be reached within the connect timeout is logged,
     * the application starts, and limited calls follow their on-failure setting until the connection
     * opens in the background (the version is checked then).
     */
    @Bean
    static SmartInitializingSingleton limiterRedisVersionCheck(ObjectProvider<LimiterRedisConnection> connection,
            ObjectProvider<RateLimiter> rateLimiter, ObjectProvider<RedisServerSettings> settings) {
        return () -> {
            Runnable check = () -> {
                if (rateLimiter.getIfUnique() instanceof RedisRateLimiter redis) {
                    logger.info("Rate limiting uses Redis " + redis.check());
                    settings.ifAvailable(RedisServerSettings::check);
                }
            };
            LimiterRedisConnection redis = connection.getObject();
            if (!redis.connect(check)) {
                logger.warn("Rate limiting cannot reach " + redis.servers() + " at start-up (" + redis.failure()
                        + "); limited calls follow limiter.redis.on-failure until it connects, which it keeps "
                        + "trying in the background");
            }
        };
    }

    @Bean
    RedisServerSettings limiterRedisServerSettings(LimiterRedisConnection connection, LimiterProperties properties) {
        RedisServerSettings settings = new RedisServerSettings(connection.template(),
                properties.getRedis().getTimeout(), properties.getRedis().isRequireNoeviction(),
                RedisServerSettings.READ_INTERVAL);
        connection.onReconnect(settings::reconnected);
        return settings;
    }

}
