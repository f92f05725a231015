package io.github.limiter.autoconfigure.health;

import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterPolicyOverridesAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
class LimiterHealthAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
                LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
                LimiterPolicyOverridesAutoConfiguration.class, LimiterHealthAutoConfiguration.class));

    @Test
    void isUpWithTheRedisVersionWhenRedisIsReachable(EmbeddedRedis redis) {
        this.runner.withPropertyValues("spring.data.redis.port=" + redis.port()).run(context -> {
            Health health = context.getBean("limiterHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKey("redisVersion");
        });
    }

    @Test
    void isDegradedWhenRedisIsUnreachableAndEveryLimitFailsOpen() {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        this.runner.withUserConfiguration(FailingOpen.class)
            .withPropertyValues("spring.data.redis.port=" + stopped.port())
            .run(context -> {
                assertThat(context).hasNotFailed();
                Health health = context.getBean("limiterHealthIndicator", HealthIndicator.class).health();
                assertThat(health.getStatus().getCode()).isEqualTo("DEGRADED");
                assertThat(health.getDetails()).containsEntry("errorKind", "connection")
                    .containsEntry("limitsFailClosed", false);
            });
    }

    @Test
    void isDownWhenRedisIsUnreachableAndALimitFailsClosed() {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        this.runner.withUserConfiguration(FailingOpen.class, FailingClosed.class)
            .withPropertyValues("spring.data.redis.port=" + stopped.port())
            .run(context -> {
                Health health = context.getBean("limiterHealthIndicator", HealthIndicator.class).health();
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(health.getDetails()).containsEntry("limitsFailClosed", true);
            });
    }

    @Test
    void isDownWhenRedisIsUnreachableAndLimitsFailClosedByDefault() {
        EmbeddedRedis stopped = EmbeddedRedis.start();
        stopped.close();
        this.runner.withUserConfiguration(FailingOpen.class)
            .withPropertyValues("spring.data.redis.port=" + stopped.port(), "limiter.redis.on-failure=deny")
            .run(context -> assertThat(context.getBean("limiterHealthIndicator", HealthIndicator.class).health()
                .getStatus()).isEqualTo(Status.DOWN));
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

    @Configuration(proxyBeanMethods = false)
    static class FailingOpen {

        @Bean
        Reads reads() {
            return new Reads();
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class FailingClosed {

        @Bean
        Logins logins() {
            return new Logins();
        }

    }

    static class Reads {

        @RateLimit(key = "#user", window = "1m", max = 10)
        public void read(String user) {
        }

    }

    static class Logins {

        @RateLimit(key = "#user", window = "1m", max = 5, onFailure = OnFailure.DENY)
        public void login(String user) {
        }

    }

}
