package io.github.limiter.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * JUnit 5 extension that starts one real Redis server per test JVM, the first time it is asked for,
 * and stops it when the JVM exits.
 *
 * <p>Tests get the server through {@link #redis()} (also from a {@code @DynamicPropertySource}
 * method, whatever the order of extensions) or as an {@link EmbeddedRedis} parameter. Tests share
 * the server, so each test uses its own key prefix or limit id.
 */
public final class RedisServerExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        redis();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedRedis.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return redis();
    }

    /**
     * Returns the server of this test JVM, starting it on first use.
     * @return the running server
     */
    public static EmbeddedRedis redis() {
        return Shared.SERVER;
    }

    /**
     * Returns a template on the server of this test JVM, shared by its tests; its connection closes
     * when the JVM exits.
     * @return the template
     */
    public static StringRedisTemplate template() {
        return SharedTemplate.TEMPLATE;
    }

    /**
     * Points a Spring Boot test at the server of this test JVM, with a key prefix of the test's own.
     * @param registry the test's dynamic properties
     * @param keyPrefix the {@code limiter.key-prefix} for the test
     */
    public static void registerProperties(DynamicPropertyRegistry registry, String keyPrefix) {
        registry.add("spring.data.redis.host", () -> redis().host());
        registry.add("spring.data.redis.port", () -> redis().port());
        registry.add("limiter.key-prefix", () -> keyPrefix);
    }

    /** Holds the template; created on first access, after the server. */
    private static final class SharedTemplate {

        static final StringRedisTemplate TEMPLATE = create();

        private static StringRedisTemplate create() {
            LettuceConnectionFactory factory = redis().newConnectionFactory();
            Runtime.getRuntime().addShutdownHook(new Thread(factory::destroy, "embedded-redis-client-shutdown"));
            return new StringRedisTemplate(factory);
        }

    }

    /** Holds the server; the JVM starts it on first access, once, thread-safely. */
    private static final class Shared {

        static final EmbeddedRedis SERVER = startWithShutdownHook();

        private static EmbeddedRedis startWithShutdownHook() {
            EmbeddedRedis server = EmbeddedRedis.start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "embedded-redis-shutdown"));
            return server;
        }

    }

}
