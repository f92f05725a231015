package io.github.limiter.autoconfigure.health;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
class LimiterHealthAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
        .of(DataRedisAutoConfiguration.class, LimiterAutoConfiguration.class, LimiterHealthAutoConfiguration.class));

    @Test
    void isUpWithTheRedisVersionWhenRedisIsReachable(EmbeddedRedis redis) {
        this.runner.withPropertyValues("spring.data.redis.port=" + redis.port()).run(context -> {
            Health health = context.getBean("limiterHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKey("redisVersion");
        });
    }

    @Test
    void isDownWhenRedisIsUnreachable() {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        this.runner.withPropertyValues("spring.data.redis.port=" + stopped.port()).run(context -> {
            assertThat(context).hasNotFailed();
            Health health = context.getBean("limiterHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Test
    void backsOffWithoutHealthSupport() {
        this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
            .run(context -> assertThat(context).doesNotHaveBean(LimiterHealthIndicator.class));
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("management.health.limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(LimiterHealthIndicator.class));
    }

}
