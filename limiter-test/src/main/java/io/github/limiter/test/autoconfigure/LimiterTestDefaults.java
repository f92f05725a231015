package io.github.limiter.test.autoconfigure;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * The kit's defaults for the tests it runs ({@link AutoConfigureLimiterRedis}), below every property
 * the application or the test sets: {@code limiter.redis.timeout=2s}. A decision Redis does not
 * make within the timeout lets its call through uncounted, and the first decisions of a test JVM
 * on a loaded build machine can take longer than the 100 ms an application uses, so a test that
 * expects a refusal would fail now and then. Registered in {@code META-INF/spring.factories}, as
 * Spring's own context customizers are.
 */
final class LimiterTestDefaults implements ContextCustomizerFactory {

    static final Map<String, Object> DEFAULTS = Map.of("limiter.redis.timeout", "2s");

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureLimiterRedis.class) ? new Defaults()
                : null;
    }

    /** Adds the defaults last, so that anything set anywhere else wins. */
    private static final class Defaults implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            context.getEnvironment()
                .getPropertySources()
                .addLast(new MapPropertySource("limiterTestDefaults", DEFAULTS));
        }

        // one context for every test class the kit runs, as far as these defaults go
        @Override
        public boolean equals(@Nullable Object other) {
            return other instanceof Defaults;
        }

        @Override
        public int hashCode() {
            return Defaults.class.hashCode();
        }

    }

}
