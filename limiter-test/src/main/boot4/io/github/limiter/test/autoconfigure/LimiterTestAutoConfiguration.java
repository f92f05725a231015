package io.github.limiter.test.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * What {@link AutoConfigureLimiterRedis @AutoConfigureLimiterRedis} imports: the connection details
 * of the JVM's embedded Redis, which Spring Boot then uses for the application's connection factory
 * and so for the limiter's own connection, and the {@link RateLimitTester}
 * ({@link RateLimitTesterConfiguration}, which every generation's kit shares).
 *
 * <p>Before Spring Boot's Redis auto-configuration, whose connection details from
 * {@code spring.data.redis.*} back off for these.
 *
 * <p>Spring Boot 4's; each Spring Boot generation's test kit has its own.
 */
@AutoConfiguration(before = DataRedisAutoConfiguration.class)
@Import(RateLimitTesterConfiguration.class)
final class LimiterTestAutoConfiguration {

    @Bean
    DataRedisConnectionDetails limiterTestRedisConnectionDetails() {
        return new EmbeddedRedisConnectionDetails(EmbeddedRedisServer.shared().port());
    }

    /** The embedded server, as Spring Boot's Redis auto-configuration takes it. */
    private record EmbeddedRedisConnectionDetails(int port) implements DataRedisConnectionDetails {

        @Override
        public Standalone getStandalone() {
            return Standalone.of(EmbeddedRedisServer.HOST, this.port);
        }

    }

}
