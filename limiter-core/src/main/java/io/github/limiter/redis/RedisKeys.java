package io.github.limiter.redis;

import java.util.List;

/**
 * Builds the Redis keys of a limit and key. The limit id and the resolved key form one hash tag,
 * so every key of one decision lands in the same Redis Cluster slot: {@code <prefix>{<limit-id>:<key>}}
 * for the state, and the same with {@code :ban} and {@code :alert}; {@code <prefix>{<limit-id>}} when
 * the key is empty (one state shared by every caller).
 */
final class RedisKeys {

    private RedisKeys() {
    }

    /** Returns the state, ban and alert keys, in the order the script takes them. */
    static List<String> of(String prefix, String limitId, String key) {
        String state = key.isEmpty() ? prefix + '{' + limitId + '}' : prefix + '{' + limitId + ':' + key + '}';
        return List.of(state, state + ":ban", state + ":alert");
    }

}
