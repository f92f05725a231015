package io.github.limiter.autoconfigure.redis;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The connection factories the limiter opened for itself, to the application's Redis.
 *
 * @param commands the factory of the limiter's commands
 * @param subscriptions the factory to subscribe on (the same, unless the set-up has no Pub/Sub)
 * @param servers where it connects, as the application's factory does
 * @param client the client library, and whether over TLS, for one log line
 * @param closer closes what was opened
 */
record OwnConnection(RedisConnectionFactory commands, RedisConnectionFactory subscriptions, RedisConfiguration servers,
        String client, Runnable closer) {

    /** Where it connects, such as {@code Redis at 10.0.0.5:6379}. */
    String describeServers() {
        return RedisServers.describe(this.servers);
    }

    /** The Redis user it signs in as, if one is named. */
    @Nullable String user() {
        return RedisServers.user(this.servers);
    }

}
