package io.github.limiter.autoconfigure.redis;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.CommandListenerWriter;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandExpiryWriter;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Moves the limiter's Lettuce connections to the new master as soon as the sentinels announce a
 * failover ({@code +switch-master}). Lettuce asks the sentinels for the master only when it
 * connects, and Sentinel leaves the master it replaced running and writable until it demotes it,
 * about ten seconds later (a planned {@code SENTINEL FAILOVER} replaces a master that is still up):
 * the limiter would go on counting and banning there, and the old master throws all of it away
 * when it resyncs from the new one.
 *
 * <p>It subscribes to {@code +switch-master} on every sentinel. When one names a new master for the
 * limiter's master name, it logs one line, and disconnects each of the limiter's connections
 * (commands and subscription) that is not on the new master; Lettuce reconnects them at once, to
 * the master just named ({@link SentinelFollowingConnectionFactory}), and restores the
 * subscription. A connection that comes back to another address anyway is moved again a tenth of
 * a second later, for as long as the switch is recent.
 */
final class LettuceSentinelFollower implements RedisConnectionStateListener, AutoCloseable {

    private static final Log logger = LogFactory.getLog(LettuceSentinelFollower.class);

    static final String SWITCH_CHANNEL = "+switch-master";

    private static final long RETRY_MILLIS = 100;

    private static final long FOLLOW_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final String master;

    private final ClientResources resources;

    private final RedisClient sentinelClient;

    private final List<StatefulRedisPubSubConnection<String, String>> subscriptions = new CopyOnWriteArrayList<>();

    private final Map<RedisChannelHandler<?, ?>, SocketAddress> connections = new ConcurrentHashMap<>();

    private final Set<RedisURI> unheard = ConcurrentHashMap.newKeySet();

    private volatile @Nullable Switch followed;

    private volatile boolean closed;

    /**
     * Starts following the sentinels.
     * @param sentinels the sentinels, as Lettuce reaches them (credentials, TLS, timeout), and the
     * master's name
     * @param resources the limiter's client resources, shared
     */
    LettuceSentinelFollower(RedisURI sentinels, ClientResources resources) {
        this.master = Objects.requireNonNull(sentinels.getSentinelMasterId(), "no master name");
        this.resources = resources;
        // a client of its own: its connections to the sentinels are none of the limiter's data connections
        this.sentinelClient = RedisClient.create(resources);
        sentinels.getSentinels().forEach(sentinel -> subscribe(sentinel, 0));
    }

    /** Moves the connections of this client, the limiter's, when the sentinels announce a switch. */
    void watch(RedisClient limiterClient) {
        limiterClient.addListener(this);
    }

    /**
     * Returns the master the sentinels named in a recent switch, for a connection that connects
     * again to go there without asking the sentinels: they may be slow to answer right after a
     * failover (a sentinel that stalled enters TILT mode), and the one asked first may not have
     * heard of it yet.
     * @return the new master, for a few seconds after a switch; otherwise {@code null}
     */
    @Nullable SocketAddress recentMaster() {
        Switch followed = this.followed;
        return (followed != null && System.nanoTime() - followed.at() < FOLLOW_NANOS) ? followed.address() : null;
    }

    /**
     * Subscribes on one sentinel; one that cannot be reached is tried again, at most once a second,
     * with one line when it cannot and one when it can again.
     */
    private void subscribe(RedisURI sentinel, long delayMillis) {
        if (this.closed) {
            return;
        }
        this.sentinelClient.connectPubSubAsync(StringCodec.UTF8, sentinel)
            .thenCompose(connection -> {
                this.subscriptions.add(connection);
                if (this.closed) {
                    connection.closeAsync();
                }
                connection.addListener(new RedisPubSubAdapter<>() {

                    @Override
                    public void message(String channel, String message) {
                        announced(sentinel, message);
                    }

                });
                // Lettuce subscribes again by itself whenever this connection comes back
                return connection.async().subscribe(SWITCH_CHANNEL);
            })
            .whenComplete((ignored, failure) -> {
                if (this.closed) {
                    return;
                }
                if (failure == null) {
                    if (this.unheard.remove(sentinel)) {
                        logger.info("Rate limiting hears the failovers Redis Sentinel " + address(sentinel)
                                + " announces");
                    }
                    return;
                }
                long next = Math.min(Math.max(2 * delayMillis, 50), 1000);
                // while no connection of the limiter's is open, its own lines say it cannot reach Redis
                if (!this.connections.isEmpty() && this.unheard.add(sentinel)) {
                    logger.warn("Rate limiting cannot hear the failovers Redis Sentinel " + address(sentinel)
                            + " announces (" + failure.getMessage() + "); it tries again every second");
                }
                this.resources.eventExecutorGroup()
                    .schedule(() -> subscribe(sentinel, next), next, TimeUnit.MILLISECONDS);
            });
    }

    private static String address(RedisURI sentinel) {
        return "'" + sentinel.getHost() + ":" + sentinel.getPort() + "'";
    }

    /** {@code <master name> <old ip> <old port> <new ip> <new port>} */
    private void announced(RedisURI sentinel, String message) {
        String[] parts = message.split(" ");
        if (parts.length != 5 || !parts[0].equals(this.master)) {
            return;
        }
        // off the I/O thread: the address may take a look-up
        this.resources.eventExecutorGroup().execute(() -> {
            String from = parts[1] + ":" + parts[2];
            String to = parts[3] + ":" + parts[4];
            SocketAddress address = this.resources.socketAddressResolver()
                .resolve(RedisURI.create(parts[3], Integer.parseInt(parts[4])));
            synchronized (this) {
                Switch followed = this.followed;
                if (followed != null && followed.address().equals(address)) {
                    // every sentinel announces the same switch
                    return;
                }
                this.followed = new Switch(address, System.nanoTime());
            }
            logger.warn("Redis Sentinel " + address(sentinel) + " announced a failover of '" + this.master + "' from "
                    + from + " to " + to
                    + ": rate limiting moves its connections to the new master now");
            this.connections.keySet().forEach(this::moveIfElsewhere);
        });
    }

    private void moveIfElsewhere(RedisChannelHandler<?, ?> connection) {
        Switch followed = this.followed;
        SocketAddress remote = this.connections.get(connection);
        if (followed == null || remote == null || this.closed || !connection.isOpen()
                || sameAddress(remote, followed.address())) {
            return;
        }
        RedisChannelWriter writer = connection.getChannelWriter();
        while (true) {
            if (writer instanceof CommandListenerWriter listening) {
                writer = listening.getDelegate();
            }
            else if (writer instanceof CommandExpiryWriter expiring) {
                writer = expiring.getDelegate();
            }
            else {
                break;
            }
        }
        if (writer instanceof DefaultEndpoint endpoint) {
            // the connection stays open: Lettuce reconnects it, to the master just named
            endpoint.disconnect();
        }
    }

    static boolean sameAddress(SocketAddress remote, SocketAddress master) {
        if (remote instanceof InetSocketAddress connected && master instanceof InetSocketAddress named) {
            if (connected.getPort() != named.getPort()) {
                return false;
            }
            if (connected.getAddress() != null && named.getAddress() != null) {
                return connected.getAddress().equals(named.getAddress());
            }
            return connected.getHostString().equals(named.getHostString());
        }
        return remote.equals(master);
    }

    @Override
    public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress remote) {
        if (connection instanceof StatefulRedisSentinelConnection<?, ?>) {
            // Lettuce asking the sentinels where the master is
            return;
        }
        this.connections.put(connection, remote);
        Switch followed = this.followed;
        if (followed != null && System.nanoTime() - followed.at() < FOLLOW_NANOS
                && !sameAddress(remote, followed.address())) {
            this.resources.eventExecutorGroup()
                .schedule(() -> moveIfElsewhere(connection), RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
        this.connections.remove(connection);
    }

    @Override
    public void close() {
        this.closed = true;
        this.subscriptions.forEach(StatefulRedisPubSubConnection::closeAsync);
        this.sentinelClient.shutdown(0, 2, TimeUnit.SECONDS);
    }

    /** The master the sentinels last named, and when this heard it, in {@link System#nanoTime()}. */
    private record Switch(SocketAddress address, long at) {

    }

}
