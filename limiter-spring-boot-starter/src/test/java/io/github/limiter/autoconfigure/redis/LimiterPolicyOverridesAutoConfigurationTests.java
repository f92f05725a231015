package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.redis.RedisPolicyOverrides;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LimiterPolicyOverridesAutoConfiguration}, after {@link LimiterAutoConfiguration}.
 */
@WithRedis
class LimiterPolicyOverridesAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
                    LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterPolicyOverridesAutoConfiguration.class));

    @Test
    void keepsPolicyOverridesInRedisAndHearsConfigurationRefreshesWhereSpringCloudContextIsPresent() {
        this.runner.run(context -> {
            assertThat(context).hasSingleBean(RedisPolicyOverrides.class);
            assertThat(context).hasSingleBean(PolicyRefreshListener.class);
        });
        this.runner.withClassLoader(new FilteredClassLoader(EnvironmentChangeEvent.class)).run(context -> {
            assertThat(context).hasSingleBean(RedisPolicyOverrides.class);
            assertThat(context).doesNotHaveBean(PolicyRefreshListener.class);
        });
        this.runner.withPropertyValues("limiter.policy-overrides.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(RedisPolicyOverrides.class);
            assertThat(context).doesNotHaveBean(PolicyRefreshListener.class);
        });
    }

}
