package io.github.limiter.autoconfigure.health;

import io.github.limiter.interceptor.RateLimitAdvisor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.Environment;

/**
 * Tells, once at start, that Spring Boot's own Redis health indicator takes the whole
 * {@code /actuator/health} down while Redis is down, where every limit fails open and the instance
 * serves on (the {@code limiter} component says {@code DEGRADED}): a load balancer that probes it
 * takes every instance out at once, the outage failing open exists to ride out. Whether the
 * application needs Redis for more than its limits (sessions, caches) only it knows, so the
 * indicator stays as it is and the line names the property that turns it off.
 */
final class RedisHealthAdvice {

    // Spring Boot's Redis health contributor, by the name both Boot lines give it
    static final String BOOTS_REDIS_HEALTH = "redisHealthContributor";

    private static final Log logger = LogFactory.getLog(RedisHealthAdvice.class);

    private RedisHealthAdvice() {
    }

    /**
     * Logs the advice once every singleton is made, when the advisor has resolved every limit.
     * @param beanFactory the application's
     * @param environment the application's
     * @param advisor the advisor, if there is one
     * @return what to register as a bean
     */
    static SmartInitializingSingleton atStart(BeanFactory beanFactory, Environment environment,
            ObjectProvider<RateLimitAdvisor> advisor) {
        return () -> {
            String advice = advice(beanFactory.containsBean(BOOTS_REDIS_HEALTH), environment, advisor.getIfUnique());
            if (advice != null) {
                logger.info(advice);
            }
        };
    }

    static @Nullable String advice(boolean bootsRedisHealth, Environment environment,
            @Nullable RateLimitAdvisor advisor) {
        if (!bootsRedisHealth || advisor == null || advisor.limits().isEmpty() || advisor.failsClosed()) {
            return null;
        }
        String wait = environment.containsProperty("spring.data.redis.timeout") ? ""
                : ", and waits for Redis's answer up to spring.data.redis.timeout (with Lettuce, 60 s unless set)";
        return "Spring Boot's Redis health indicator takes /actuator/health DOWN (503) while Redis is down" + wait
                + ", though every rate limit fails open and this instance serves on (the 'limiter' component says "
                + "DEGRADED): a load balancer would take every instance out at once. If the application needs Redis "
                + "for nothing but its rate limits, set management.health.redis.enabled=false (see \"Health during a "
                + "Redis outage\" in docs/operations.md)";
    }

}
