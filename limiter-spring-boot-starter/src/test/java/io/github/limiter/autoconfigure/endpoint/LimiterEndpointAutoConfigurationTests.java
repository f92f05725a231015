package io.github.limiter.autoconfigure.endpoint;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterPolicyOverridesAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class LimiterEndpointAutoConfigurationTests {

    private static final AutoConfigurations AUTO_CONFIGURATIONS = AutoConfigurations.of(DataRedisAutoConfiguration.class,
            AopAutoConfiguration.class, LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
            LimiterPolicyOverridesAutoConfiguration.class, LimiterEndpointAutoConfiguration.class);

    private static final String EXPOSED = "management.endpoints.web.exposure.include=ratelimits";

    private static final String WRITES_ON = "management.endpoint.ratelimits.access=unrestricted";

    private static final String WARNING = "The ratelimits endpoint's writes are open over HTTP without Spring Security";

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withInitializer(LimiterEndpointAutoConfigurationTests::bindAsSpringApplicationDoes)
        .withConfiguration(AUTO_CONFIGURATIONS);

    @Test
    void providesTheEndpointOnceExposed() {
        this.runner.withPropertyValues(EXPOSED)
            .run(context -> assertThat(context).hasSingleBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWhileNotExposed() {
        this.runner.run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWithoutActuator() {
        this.runner.withPropertyValues(EXPOSED)
            .withClassLoader(new FilteredClassLoader(Endpoint.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

    @Test
    void backsOffWithoutARateLimiter() {
        new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LimiterRedisAutoConfiguration.class,
                    LimiterAutoConfiguration.class, LimiterPolicyOverridesAutoConfiguration.class,
                    LimiterEndpointAutoConfiguration.class))
            .withPropertyValues(EXPOSED)
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

    @Test
    void warnsAtStartWhenWritesAreOpenOverHttpWithoutSpringSecurity(CapturedOutput output) {
        // Spring Security's classes are on the tests' classpath, with no filter chain: as good as none
        this.runner.withPropertyValues(EXPOSED, WRITES_ON).run((context) -> {
            assertThat(context).hasSingleBean(UnsecuredWritesWarning.class);
            assertThat(output.getOut().lines().filter((line) -> line.contains(WARNING))).singleElement()
                .asString()
                .contains("WARN", "management.endpoint.ratelimits.access=read-only",
                        "anyone who reaches the port can lift bans, reset keys and switch bans off on every instance");
        });
    }

    @Test
    void warnsWithoutSpringSecurityOnTheClasspath(CapturedOutput output) {
        this.runner.withPropertyValues(EXPOSED, WRITES_ON)
            .withClassLoader(new FilteredClassLoader("org.springframework.security"))
            .run((context) -> assertThat(output.getOut()).contains(WARNING));
    }

    @Test
    void warnsWhereEveryEndpointIsUnrestricted(CapturedOutput output) {
        this.runner.withPropertyValues(EXPOSED, "management.endpoints.access.default=unrestricted")
            .run((context) -> assertThat(output.getOut()).contains(WARNING));
    }

    @Test
    void doesNotWarnWhileTheWritesAreOff(CapturedOutput output) {
        this.runner.withPropertyValues(EXPOSED).run((context) -> {
            assertThat(context).hasSingleBean(UnsecuredWritesWarning.class);
            assertThat(output.getOut()).doesNotContain(WARNING);
        });
        this.runner.withPropertyValues(EXPOSED, WRITES_ON, "management.endpoints.access.max-permitted=read-only")
            .run((context) -> assertThat(output.getOut()).doesNotContain(WARNING));
    }

    @Test
    void doesNotWarnWhenTheEndpointIsNotOnTheWeb(CapturedOutput output) {
        this.runner.withPropertyValues("management.endpoints.jmx.exposure.include=ratelimits", "spring.jmx.enabled=true",
                WRITES_ON)
            .run((context) -> {
                assertThat(context).hasSingleBean(RateLimitsEndpoint.class);
                assertThat(context).doesNotHaveBean(UnsecuredWritesWarning.class);
            });
        new ApplicationContextRunner().withInitializer(LimiterEndpointAutoConfigurationTests::bindAsSpringApplicationDoes)
            .withConfiguration(AUTO_CONFIGURATIONS)
            .withPropertyValues(EXPOSED, WRITES_ON)
            .run((context) -> {
                assertThat(context).as("not a web application").hasSingleBean(RateLimitsEndpoint.class);
                assertThat(context).doesNotHaveBean(UnsecuredWritesWarning.class);
            });
        assertThat(output.getOut()).doesNotContain(WARNING);
    }

    /**
     * Converts properties as a {@code SpringApplication}'s environment does, where
     * {@code access=unrestricted} is the enum {@code UNRESTRICTED}.
     */
    static void bindAsSpringApplicationDoes(ConfigurableApplicationContext context) {
        context.getEnvironment().setConversionService(new ApplicationConversionService());
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues(EXPOSED, "limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class));
    }

}
