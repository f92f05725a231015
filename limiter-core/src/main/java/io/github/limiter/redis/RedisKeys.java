package io.github.limiter.redis;

/**
 * Builds the Redis keys of a limit. The limit id and the resolved key form one hash tag, so every
 * key of one decision lands in the same Redis Cluster slot:
 * {@code <prefix>{<limit-id>:<key>}}, or {@code <prefix>{<limit-id>}} for a shared counter.
 */
final class RedisKeys {

    private RedisKeys() {
    }

    static String counter(String prefix, String limitId, String key) {
        return key.isEmpty() ? prefix + '{' + limitId + '}' : prefix + '{' + limitId + ':' + key + '}';
    }

}
