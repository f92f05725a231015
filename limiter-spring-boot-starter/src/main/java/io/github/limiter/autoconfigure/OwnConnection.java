package io.github.limiter.autoconfigure;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The connection factories the limiter opened for itself, to the application's Redis.
 *
 * @param commands the factory of the limiter's commands
 * @param subscriptions the factory to subscribe on (the same, unless the set-up has no Pub/Sub)
 * @param description where it connects and how, for one log line
 * @param closer closes what was opened
 */
record OwnConnection(RedisConnectionFactory commands, RedisConnectionFactory subscriptions, String description,
        Runnable closer) {
}
