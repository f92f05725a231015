package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Checks that Redis can run the limiter: reachable, recent enough, and able to load the decision
 * script.
 */
final class RedisChecks {

    /** The scripts call TIME before writing, which Redis allows from 5.0 (effects replication). */
    static final int OLDEST_MAJOR = 5;

    private RedisChecks() {
    }

    /** Returns the server's version after loading the scripts; throws if Redis is too old. */
    static String check(StringRedisTemplate redis, RedisScript<?>... scripts) {
        // A cluster answers for every node, each property prefixed with the node: check them all.
        List<String> versions = redis.execute((RedisCallback<List<String>>) connection -> {
            Properties info = connection.serverCommands().info("server");
            return (info != null) ? info.stringPropertyNames()
                .stream()
                .filter(name -> name.equals("redis_version") || name.endsWith(".redis_version"))
                .map(info::getProperty)
                .sorted()
                .toList() : List.of();
        });
        if (versions == null || versions.isEmpty()) {
            throw new IllegalStateException("Redis did not say its version");
        }
        versions.forEach(RedisChecks::requireSupported);
        String version = versions.get(0);
        for (RedisScript<?> script : scripts) {
            redis.execute((RedisCallback<String>) connection -> connection.scriptingCommands()
                .scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8)));
        }
        return version;
    }

    static void requireSupported(String version) {
        int major;
        try {
            major = Integer.parseInt(String.valueOf(version).split("\\.")[0]);
        }
        catch (NumberFormatException ex) {
            throw new IllegalStateException("Cannot tell the Redis version from '" + version + "'", ex);
        }
        if (major < OLDEST_MAJOR) {
            throw new IllegalStateException("Redis " + version + " is too old for limiter: its scripts read the time "
                    + "(TIME) before writing, which needs Redis " + OLDEST_MAJOR + ".0 or later. Upgrade Redis.");
        }
    }

}
