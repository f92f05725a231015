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

    final RedisScript<List<Long>> fixedWindow = load("fixed_window.lua");

    final RedisScript<List<Long>> state = load("state.lua");

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static RedisScript<List<Long>> load(String name) {
        DefaultRedisScript<List> script = new DefaultRedisScript<>();
        script.setLocation(new ClassPathResource(LOCATION + name, LimiterScripts.class.getClassLoader()));
        script.setResultType(List.class);
        // Reads the resource and computes the SHA1 now, so a missing script fails at start-up.
        script.getSha1();
        return (RedisScript<List<Long>>) (RedisScript) script;
    }

}
