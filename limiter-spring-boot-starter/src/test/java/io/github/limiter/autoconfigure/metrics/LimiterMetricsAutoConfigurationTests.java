package io.github.limiter.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterMetricsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LimiterMetricsAutoConfiguration.class));

    @Test
    void countsDecisionsWhenTheApplicationHasAMeterRegistry() {
        this.runner.withUserConfiguration(Registry.class)
            .run(context -> assertThat(context).hasSingleBean(RateLimitMetrics.class));
    }

    @Test
    void backsOffWithoutAMeterRegistry() {
        this.runner.run(context -> assertThat(context).doesNotHaveBean(RateLimitMetrics.class));
    }

    @Test
    void backsOffWithoutMicrometer() {
        this.runner.withUserConfiguration(Registry.class)
            .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitMetrics.class));
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withUserConfiguration(Registry.class)
            .withPropertyValues("limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitMetrics.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class Registry {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

    }

}
