package io.github.limiter.redis;

import java.util.List;

/**
 * Builds the Redis keys of a limit and key. The limit id and the resolved key form one hash tag,
 * so every key of one decision lands in the same Redis Cluster slot: {@code <prefix>{<limit-id>:<key>}}
 * for the state, and the same with {@code :ban} (or {@code :shadow-ban} in shadow mode) and
 * {@code :alert}; {@code <prefix>{<limit-id>}} when the key is empty (one state shared by every
 * caller).
 */
final class RedisKeys {

    static final String BAN = ":ban";

    static final String SHADOW_BAN = ":shadow-ban";

    static final String ALERT = ":alert";

    private RedisKeys() {
    }

    /** Returns the state key. */
    static String state(String prefix, String limitId, String key) {
        return key.isEmpty() ? prefix + '{' + limitId + '}' : prefix + '{' + limitId + ':' + key + '}';
    }

    /** Returns the state, ban and alert keys, in the order the script takes them. */
    static List<String> of(String prefix, String limitId, String key, boolean shadow) {
        String state = state(prefix, limitId, key);
        return List.of(state, state + (shadow ? SHADOW_BAN : BAN), state + ALERT);
    }

}
