package io.github.limiter.redis;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the Redis engine reads at run time that a native image only has if told: the Lua scripts,
 * read from the classpath when the limiter is created, and the client classes whose presence picks
 * how the scripts are run ({@link RedisRateLimiter}; the starter's own connection probes the same).
 * Registered in {@code META-INF/spring/aot.factories}.
 */
final class RedisRuntimeHints implements RuntimeHintsRegistrar {

    /** Every script, so that a new one needs no new hint. */
    static final String SCRIPTS = LimiterScripts.LOCATION + "*.lua";

    // looked up by name with ClassUtils.isPresent, which a native image answers only for registered types
    private static final List<String> PROBED_CLIENTS = List.of("io.lettuce.core.RedisClient",
            "redis.clients.jedis.Jedis", "redis.clients.jedis.RedisClient");

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS);
        for (String client : PROBED_CLIENTS) {
            hints.reflection().registerTypeIfPresent(classLoader, client);
        }
    }

}
