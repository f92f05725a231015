package io.github.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The scripts, loaded once from the {@code .lua} files in {@code META-INF/limiter/scripts}: the
 * decision script, assembled from shared helpers, one file per algorithm and the main part; its
 * fast path for one plain fixed-window limit; and the script that records recent events. They run with EVALSHA and are sent again on NOSCRIPT: the
 * decision script by {@link DecisionCall}, the other by Spring Data Redis's script executor.
 */
final class LimiterScripts {

    private static final String LOCATION = "META-INF/limiter/scripts/";

    private static final List<String> PARTS = List.of("common.lua", "fixed_window.lua", "sliding_log.lua",
            "sliding_window.lua", "token_bucket.lua", "decide.lua");

    private LimiterScripts() {
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    static RedisScript<List<Long>> decide() {
        StringBuilder text = new StringBuilder();
        for (String part : PARTS) {
            text.append(read(part)).append('\n');
        }
        DefaultRedisScript<List> script = new DefaultRedisScript<>(text.toString(), List.class);
        return (RedisScript<List<Long>>) (RedisScript) script;
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    static RedisScript<List<Long>> fixedWindowFast() {
        DefaultRedisScript<List> script = new DefaultRedisScript<>(read("fixed_window_fast.lua"), List.class);
        return (RedisScript<List<Long>>) (RedisScript) script;
    }

    static RedisScript<Long> recordEvent() {
        return new DefaultRedisScript<>(read("record_event.lua"), Long.class);
    }

    private static String read(String name) {
        ClassPathResource resource = new ClassPathResource(LOCATION + name, LimiterScripts.class.getClassLoader());
        try (InputStream in = resource.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read limiter script " + resource, ex);
        }
    }

}
