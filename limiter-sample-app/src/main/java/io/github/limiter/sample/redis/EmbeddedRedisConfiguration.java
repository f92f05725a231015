package io.github.limiter.sample.redis;

import io.github.limiter.test.EmbeddedRedis;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Starts a Redis of the demo's own when no {@code spring.data.redis.*} setting is given, so the
 * sample runs on a machine with nothing but a JDK. The server stops with the application context,
 * which Spring Boot closes on Ctrl-C and SIGTERM. {@code sample.embedded-redis.port} picks its
 * port (a free one by default), so that a second instance can share it, as
 * {@code demo-two-instances.sh} does.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoRedisConfiguredCondition.class)
class EmbeddedRedisConfiguration {

    private static final Logger logger = LoggerFactory.getLogger(EmbeddedRedisConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedRedis embeddedRedis(@Value("${sample.embedded-redis.port:0}") int port) {
        EmbeddedRedis redis = (port != 0) ? EmbeddedRedis.start(port) : EmbeddedRedis.start();
        logger.info("No spring.data.redis.* settings: started an embedded Redis on {}:{}; it stops with the app",
                redis.host(), redis.port());
        return redis;
    }

    @Bean
    DataRedisConnectionDetails embeddedRedisConnectionDetails(EmbeddedRedis redis) {
        DataRedisConnectionDetails.Standalone standalone = DataRedisConnectionDetails.Standalone.of(redis.host(),
                redis.port());
        return new DataRedisConnectionDetails() {

            @Override
            public Standalone getStandalone() {
                return standalone;
            }

        };
    }

}
