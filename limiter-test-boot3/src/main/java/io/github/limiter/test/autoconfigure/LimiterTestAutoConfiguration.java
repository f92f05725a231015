package io.github.limiter.test.autoconfigure;

import io.github.limiter.RateLimiter;
import io.github.limiter.aop.RateLimitAdvisor;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.redis.RecentEvents;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What {@link AutoConfigureLimiterRedis @AutoConfigureLimiterRedis} imports: the connection details
 * of the JVM's embedded Redis, which Spring Boot then uses for the application's connection factory
 * and so for the limiter's own connection, and the {@link RateLimitTester}.
 *
 * <p>Before Spring Boot's Redis auto-configuration, whose connection details from
 * {@code spring.data.redis.*} back off for these.
 *
 * <p>Spring Boot 3's; each Spring Boot generation's test kit has its own.
 */
@AutoConfiguration(before = RedisAutoConfiguration.class)
final class LimiterTestAutoConfiguration {

    @Bean
    RedisConnectionDetails limiterTestRedisConnectionDetails() {
        return new EmbeddedRedisConnectionDetails(EmbeddedRedisServer.shared().port());
    }

    @Bean
    @ConditionalOnMissingBean
    RateLimitTester rateLimitTester(ObjectProvider<RateLimiter> rateLimiter, ObjectProvider<RateLimitAdvisor> advisor,
            ObjectProvider<LimiterProperties> properties, ObjectProvider<RedisConnectionFactory> connectionFactory,
            ObjectProvider<RecentEvents> recentEvents) {
        // providers, since the limiter's beans come later and are gone with limiter.enabled=false
        return new RateLimitTester(rateLimiter, advisor,
                new LimiterStateReset(properties, rateLimiter, connectionFactory, recentEvents));
    }

    /** The embedded server, as Spring Boot's Redis auto-configuration takes it. */
    private record EmbeddedRedisConnectionDetails(int port) implements RedisConnectionDetails {

        @Override
        public Standalone getStandalone() {
            return Standalone.of(EmbeddedRedisServer.HOST, this.port);
        }

    }

}
