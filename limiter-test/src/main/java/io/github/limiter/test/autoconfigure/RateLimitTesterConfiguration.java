package io.github.limiter.test.autoconfigure;

import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimiter;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.autoconfigure.LimiterProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The {@link RateLimitTester}, imported by each Spring Boot generation's
 * {@code LimiterTestAutoConfiguration}: what the kits share beyond the connection details.
 */
@Configuration(proxyBeanMethods = false)
class RateLimitTesterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitTester rateLimitTester(ObjectProvider<RateLimiter> rateLimiter, ObjectProvider<RateLimitAdmin> admin,
            ObjectProvider<RateLimitAdvisor> advisor, LimiterStateReset reset,
            ObjectProvider<RedisConnectionFactory> connectionFactory) {
        // providers, since the limiter's beans come later and are gone with limiter.enabled=false
        return new RateLimitTester(rateLimiter, admin, advisor, reset, connectionFactory);
    }

    @Bean
    LimiterStateReset limiterStateReset(ObjectProvider<LimiterProperties> properties,
            ObjectProvider<RateLimiter> rateLimiter, ObjectProvider<RedisConnectionFactory> connectionFactory) {
        return new LimiterStateReset(properties, rateLimiter, connectionFactory);
    }

}
