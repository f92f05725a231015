package io.github.limiter.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.limiter.RateLimiter;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.interceptor.RateLimitAdvisor;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The advisor that applies {@code @RateLimit}, and an auto-proxy creator to apply it even where
 * the application switched Boot's AOP auto-configuration off (as {@code @EnableCaching} does).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBean(RateLimiter.class)
@Import(RateLimitAdvisorConfiguration.AutoProxyRegistrar.class)
class RateLimitAdvisorConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static RateLimitAdvisor rateLimitAdvisor(ObjectProvider<RateLimiter> rateLimiter, BeanFactory beanFactory,
            ObjectProvider<LimiterProperties> properties) {
        // Advisors are created before other beans, while bean post-processors are still being
        // created. The limiter is looked up on the first limited call (the Redis connection should
        // not be created that early) and the properties when the first annotation is found (so
        // that they are bound as an ordinary bean, post-processed by all post-processors).
        return new RateLimitAdvisor(rateLimiter::getObject, beanFactory, () -> settings(properties.getObject()));
    }

    private static RateLimitAdvisor.Settings settings(LimiterProperties properties) {
        return new RateLimitAdvisor.Settings(policies(properties), properties.getBlankKey(),
                properties.getRedis().getOnFailure(), properties.getDefaultPolicy(),
                properties.getRedis().getLocalShare());
    }

    private static Map<String, LimitPolicy> policies(LimiterProperties properties) {
        Map<String, LimitPolicy> policies = new LinkedHashMap<>();
        // LimiterProperties refused limits within limits: its validation runs when it is bound
        properties.getPolicies().forEach((name, policy) -> policies.put(name, policy.toPolicy()));
        return policies;
    }

    static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }

    }

}
