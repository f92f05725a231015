package io.github.limiter.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that starts one real Redis server per test JVM, the first time a test class
 * asks for it, and stops it when the JVM's tests are done.
 *
 * <p>Tests get the server through {@link #redis()} or as an {@link EmbeddedRedis} parameter. Tests
 * share the server, so each test uses its own key prefix or limit id.
 */
public final class RedisServerExtension implements BeforeAllCallback, ParameterResolver {

    private static final Namespace NAMESPACE = Namespace.create(RedisServerExtension.class);

    private static volatile EmbeddedRedis shared;

    @Override
    public void beforeAll(ExtensionContext context) {
        redis(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedRedis.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return redis(extensionContext);
    }

    /**
     * Returns the shared server; only valid once the extension has run for the test class.
     * @return the running server
     * @throws IllegalStateException if no test class has started it
     */
    public static EmbeddedRedis redis() {
        EmbeddedRedis redis = shared;
        if (redis == null) {
            throw new IllegalStateException("Redis not started: annotate the test class with @WithRedis");
        }
        return redis;
    }

    private static synchronized EmbeddedRedis redis(ExtensionContext context) {
        // The root store closes its AutoCloseable values when the whole test plan has run.
        Store store = context.getRoot().getStore(NAMESPACE);
        EmbeddedRedis redis = store.computeIfAbsent(EmbeddedRedis.class, type -> EmbeddedRedis.start(),
                EmbeddedRedis.class);
        shared = redis;
        return redis;
    }

}
