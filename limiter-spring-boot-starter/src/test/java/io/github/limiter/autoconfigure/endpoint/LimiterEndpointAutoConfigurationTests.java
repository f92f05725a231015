package io.github.limiter.autoconfigure.endpoint;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterEndpointAutoConfigurationTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
                    LimiterAutoConfiguration.class, LimiterEndpointAutoConfiguration.class));

    @Test
    void providesTheEndpointOnceExposed() {
        this.runner.withPropertyValues("management.endpoints.web.exposure.include=ratelimits")
            .run(context -> assertThat(context).hasSingleBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWhileNotExposed() {
        this.runner.run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWithoutActuator() {
        this.runner.withPropertyValues("management.endpoints.web.exposure.include=ratelimits")
            .withClassLoader(new FilteredClassLoader(Endpoint.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWithoutARateLimiter() {
        new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=ratelimits")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("management.endpoints.web.exposure.include=ratelimits", "limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

}
