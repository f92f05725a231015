package io.github.limiter.autoconfigure;

import java.time.Duration;
import java.util.UUID;

import io.github.limiter.Decision;
import io.github.limiter.RateLimiter;
import io.github.limiter.aop.RateLimitAdvisor;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
class LimiterAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
                    LimiterAutoConfiguration.class));

    @Test
    void providesRedisRateLimiterAndAdvisorWhenRedisIsConfigured() {
        this.runner.run(context -> {
            assertThat(context).hasSingleBean(RateLimiter.class);
            assertThat(context.getBean(RateLimiter.class)).isInstanceOf(RedisRateLimiter.class);
            assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            assertThat(context).hasSingleBean(LimiterProperties.class);
        });
    }

    @Test
    void backsOffWithoutRedis() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class))
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context).doesNotHaveBean(RateLimiter.class);
                assertThat(context).doesNotHaveBean(RateLimitAdvisor.class);
            });
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("limiter.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(RateLimiter.class);
            assertThat(context).doesNotHaveBean(RateLimitAdvisor.class);
            assertThat(context).doesNotHaveBean(LimiterProperties.class);
        });
    }

    @Test
    void usesTheApplicationsRateLimiter() {
        this.runner.withUserConfiguration(OwnRateLimiter.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimiter.class);
            assertThat(context.getBean(RateLimiter.class)).isSameAs(context.getBean(OwnRateLimiter.class).limiter);
            assertThat(context).hasSingleBean(RateLimitAdvisor.class);
        });
    }

    @Test
    void appliesAnnotationsWithTheApplicationsRateLimiterEvenWithoutRedis() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class))
            .withUserConfiguration(OwnRateLimiter.class)
            .run(context -> {
                assertThat(context).hasSingleBean(RateLimiter.class);
                assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            });
    }

    @Test
    void usesTheApplicationsAdvisor() {
        this.runner.withUserConfiguration(OwnAdvisor.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimitAdvisor.class);
            assertThat(context.getBean(RateLimitAdvisor.class)).isSameAs(context.getBean(OwnAdvisor.class).advisor);
        });
    }

    @Test
    void backsOffWhenRedisConnectionFactoryIsAmbiguous() {
        this.runner.withUserConfiguration(TwoConnectionFactories.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(RateLimiter.class);
            assertThat(context).doesNotHaveBean(RateLimitAdvisor.class);
        });
    }

    @Test
    void writesKeysUnderTheConfiguredPrefix(EmbeddedRedis redis) {
        String prefix = "it-" + UUID.randomUUID() + ":";
        this.runner
            .withPropertyValues("spring.data.redis.port=" + redis.port(), "spring.data.redis.host=" + redis.host(),
                    "limiter.key-prefix=" + prefix)
            .run(context -> {
                Decision decision = context.getBean(RateLimiter.class)
                    .tryAcquire("orders", "42", 5, Duration.ofMinutes(1));
                assertThat(decision.allowed()).isTrue();
                StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
                assertThat(template.hasKey(prefix + "{orders:42}")).isTrue();
            });
    }

    @Test
    void rejectsAKeyPrefixThatWouldBreakTheHashTag() {
        this.runner.withPropertyValues("limiter.key-prefix=app{1}:").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                .hasMessageContaining("limiter.key-prefix 'app{1}:' must not contain '{' or '}'");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRateLimiter {

        final RateLimiter limiter = (limitId, key, max, window) -> new Decision(true, max, 1, max - 1,
                Duration.ZERO, window);

        @Bean
        RateLimiter myRateLimiter() {
            return this.limiter;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvisor {

        final RateLimitAdvisor advisor = new RateLimitAdvisor(() -> {
            throw new IllegalStateException("not used");
        }, null);

        @Bean
        RateLimitAdvisor myAdvisor() {
            return this.advisor;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class TwoConnectionFactories {

        @Bean
        RedisConnectionFactory first() {
            return new LettuceConnectionFactory();
        }

        @Bean
        RedisConnectionFactory second() {
            return new LettuceConnectionFactory();
        }

    }

}
