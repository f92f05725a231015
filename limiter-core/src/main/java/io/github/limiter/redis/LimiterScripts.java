package io.github.limiter.redis;

import io.github.limiter.internal.transport.ScriptRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The scripts, loaded once from the {@code .lua} files in {@code META-INF/limiter/scripts}: the
 * decision script, assembled from shared helpers, one file per algorithm and the main part; the
 * same decision for several calls at once (coalesced); its fast path alone, for one plain
 * fixed-window limit; and the script that records recent events. They run with EVALSHA and are
 * sent again on NOSCRIPT: the decision scripts by a {@link ScriptRunner}, the other by Spring Data
 * Redis's script executor.
 */
final class LimiterScripts {

    static final String LOCATION = "META-INF/limiter/scripts/";

    // what decides: shared helpers, the fast path, one file per algorithm, and the general path
    private static final List<String> PARTS = List.of("common.lua", "fixed_window_fast.lua", "algorithms.lua",
            "fixed_window.lua", "sliding_log.lua", "sliding_window.lua", "token_bucket.lua", "decide.lua");

    // the fast path's part alone
    private static final List<String> FAST_PARTS = List.of("common.lua", "fixed_window_fast.lua");

    private LimiterScripts() {
    }

    /** The decision script: one call, any limits. */
    static RedisScript<List<Long>> decide() {
        return assemble(PARTS, "one.lua");
    }

    /** The coalesced decision script: several calls, one after the other. */
    static RedisScript<List<Long>> batch() {
        return assemble(coalesced(PARTS), "batch.lua");
    }

    /** The fast path alone: one call of one plain fixed-window limit. */
    static RedisScript<List<Long>> fixedWindowFast() {
        return assemble(FAST_PARTS, "one_fast.lua");
    }

    /** The fast path's coalesced script: several calls, each of one plain fixed-window limit. */
    static RedisScript<List<Long>> fixedWindowFastBatch() {
        return assemble(coalesced(FAST_PARTS), "batch_fast.lua");
    }

    /** The parts of a coalesced script: those of one call, and what a run of several needs. */
    private static List<String> coalesced(List<String> parts) {
        List<String> all = new ArrayList<>(parts);
        all.add("coalesced.lua");
        return all;
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static RedisScript<List<Long>> assemble(List<String> parts, String main) {
        StringBuilder text = new StringBuilder();
        for (String part : parts) {
            text.append(read(part)).append('\n');
        }
        text.append(read(main));
        DefaultRedisScript<List> script = new DefaultRedisScript<>(text.toString(), List.class);
        return (RedisScript<List<Long>>) (RedisScript) script;
    }

    static RedisScript<Long> recordEvent() {
        return new DefaultRedisScript<>(read("record_event.lua"), Long.class);
    }

    static RedisScript<String> policyOverrides() {
        return new DefaultRedisScript<>(read("policy_overrides.lua"), String.class);
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
