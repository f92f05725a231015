package io.github.limiter.redis;

import java.util.List;

/**
 * Builds the Redis keys of a limit and key. The limit id and the resolved key form one hash tag,
 * so every key of one decision lands in the same Redis Cluster slot:
 * {@code <prefix>{<limit-id>:<key>}} for the counter and the same with {@code :ban} for the ban;
 * {@code <prefix>{<limit-id>}} when the key is empty (one counter shared by every caller).
 */
final class RedisKeys {

    private RedisKeys() {
    }

    /** Returns the counter and ban keys, in the order the scripts take them. */
    static List<String> of(String prefix, String limitId, String key) {
        String counter = key.isEmpty() ? prefix + '{' + limitId + '}' : prefix + '{' + limitId + ':' + key + '}';
        return List.of(counter, counter + ":ban");
    }

}
