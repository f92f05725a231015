package io.github.limiter.autoconfigure.redis;

import java.net.SocketAddress;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConverters;

/**
 * The limiter's Lettuce connection factory through Redis Sentinel: Spring Data's, whose client
 * follows the sentinels' announcements ({@link LettuceSentinelFollower}) and, right after one,
 * reconnects to the master it named rather than asking the sentinels again.
 */
final class SentinelFollowingConnectionFactory extends LettuceConnectionFactory {

    private final RedisSentinelConfiguration sentinel;

    private final LettuceClientConfiguration client;

    private @Nullable LettuceSentinelFollower follower;

    SentinelFollowingConnectionFactory(RedisSentinelConfiguration sentinel, LettuceClientConfiguration client) {
        super(sentinel, client);
        this.sentinel = sentinel;
        this.client = client;
    }

    /** Spring Data's client for Sentinel, with the same URI and options, and a follower. */
    @Override
    protected AbstractRedisClient createClient() {
        ClientResources resources = this.client.getClientResources()
            .orElseThrow(() -> new IllegalStateException("The limiter's client has resources of its own"));
        RedisURI uri = uri(this.sentinel, this.client);
        LettuceSentinelFollower follower = new LettuceSentinelFollower(uri, resources);
        this.follower = follower;
        FollowingClient redisClient = new FollowingClient(resources, uri, follower);
        this.client.getClientOptions().ifPresent(redisClient::setOptions);
        follower.watch(redisClient);
        return redisClient;
    }

    @Override
    public void destroy() {
        LettuceSentinelFollower follower = this.follower;
        if (follower != null) {
            follower.close();
        }
        super.destroy();
    }

    /**
     * The master's and the sentinels' URI, as Spring Data builds it for a Sentinel configuration:
     * the client's name, TLS settings and timeout on each, the database, and the credentials.
     */
    static RedisURI uri(RedisSentinelConfiguration sentinel, LettuceClientConfiguration client) {
        RedisURI uri = LettuceConverters.sentinelConfigurationToRedisURI(sentinel);
        applyClientSettings(uri, client);
        uri.getSentinels().forEach(node -> applyClientSettings(node, client));
        uri.setDatabase(sentinel.getDatabase());
        client.getRedisCredentialsProviderFactory().ifPresent(factory -> {
            uri.setCredentialsProvider(factory.createCredentialsProvider(sentinel));
            RedisCredentialsProvider sentinels = factory.createSentinelCredentialsProvider(sentinel);
            uri.getSentinels().forEach(node -> node.setCredentialsProvider(sentinels));
        });
        return uri;
    }

    private static void applyClientSettings(RedisURI uri, LettuceClientConfiguration client) {
        client.getClientName().ifPresent(uri::setClientName);
        uri.setSsl(client.isUseSsl());
        uri.setVerifyPeer(client.getVerifyMode());
        uri.setStartTls(client.isStartTls());
        uri.setTimeout(client.getCommandTimeout());
    }

    /** Finds the master through the sentinels, except right after they named a new one. */
    private static final class FollowingClient extends RedisClient {

        private final LettuceSentinelFollower follower;

        FollowingClient(ClientResources resources, RedisURI uri, LettuceSentinelFollower follower) {
            super(resources, uri);
            this.follower = follower;
        }

        /**
         * Lettuce takes this once per connection and subscribes to it again on each reconnection:
         * the choice is made at each subscription.
         */
        @Override
        protected Mono<SocketAddress> getSocketAddress(RedisURI redisURI) {
            // only a look-up of the master goes through the sentinels; a sentinel's own address does not
            boolean lookUp = redisURI.getSentinelMasterId() != null && !redisURI.getSentinels().isEmpty();
            Mono<SocketAddress> asSentinels = super.getSocketAddress(redisURI);
            if (!lookUp) {
                return asSentinels;
            }
            return Mono.defer(() -> {
                SocketAddress master = this.follower.recentMaster();
                return (master != null) ? Mono.just(master) : asSentinels;
            });
        }

    }

}
