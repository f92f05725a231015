package io.github.limiter.sample.redis;

import java.time.Duration;

import io.github.limiter.RateLimiter;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterPolicyOverridesAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddedRedisConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LimiterRedisAutoConfiguration.class,
                LimiterAutoConfiguration.class, LimiterPolicyOverridesAutoConfiguration.class))
        .withUserConfiguration(EmbeddedRedisConfiguration.class);

    @Test
    void startsARedisOfItsOwnWhenNoneIsConfiguredAndStopsItWithTheContext() {
        EmbeddedRedis[] started = new EmbeddedRedis[1];
        this.runner.run(context -> {
            assertThat(context).hasSingleBean(EmbeddedRedis.class);
            started[0] = context.getBean(EmbeddedRedis.class);
            assertThat(started[0].isRunning()).isTrue();
            assertThat(context.getBean(RateLimiter.class)
                .tryAcquire("embedded", "demo", 1, Duration.ofSeconds(10))
                .allowed()).isTrue();
        });
        assertThat(started[0].isRunning()).as("stopped when the context closed").isFalse();
    }

    @Test
    void startsItOnTheGivenPortForASecondInstanceToShare() {
        EmbeddedRedis free = EmbeddedRedis.start();
        int port = free.port();
        free.close();
        this.runner.withPropertyValues("sample.embedded-redis.port=" + port)
            .run(context -> assertThat(context.getBean(EmbeddedRedis.class).port()).isEqualTo(port));
    }

    @Test
    void usesTheConfiguredRedisWhenAnySettingIsGiven() {
        this.runner.withPropertyValues("spring.data.redis.host=redis.internal")
            .run(context -> assertThat(context).doesNotHaveBean(EmbeddedRedis.class));
        this.runner.withPropertyValues("spring.data.redis.url=redis://localhost:6390")
            .run(context -> assertThat(context).doesNotHaveBean(EmbeddedRedis.class));
    }

}
