package io.github.limiter.redis;

import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts, loaded once from {@code META-INF/limiter/scripts}. Each is run with EVALSHA and
 * sent again on NOSCRIPT by Spring Data Redis's script executor.
 */
final class LimiterScripts {

    private static final String LOCATION = "META-INF/limiter/scripts/";

    private LimiterScripts() {
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    static RedisScript<List<Long>> fixedWindow() {
        return (RedisScript<List<Long>>) (RedisScript) load("fixed_window.lua", List.class);
    }

    private static <T> RedisScript<T> load(String name, Class<T> resultType) {
        DefaultRedisScript<T> script = new DefaultRedisScript<>();
        script.setLocation(new ClassPathResource(LOCATION + name, LimiterScripts.class.getClassLoader()));
        script.setResultType(resultType);
        // Reads the resource and computes the SHA1 now, so a missing script fails at start-up.
        script.getSha1();
        return script;
    }

}
