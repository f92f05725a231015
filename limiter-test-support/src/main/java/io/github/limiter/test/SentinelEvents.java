package io.github.limiter.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * What the sentinels of an {@link EmbeddedRedisSentinel} announce on their Pub/Sub channels
 * ({@code +switch-master}, {@code +convert-to-slave}, ...), each with the moment it arrived, from
 * the moment this was created until it is closed: to time a test from a failover's announcement,
 * and to tell what the sentinels did when a test fails.
 *
 * @since 0.1.0
 */
public final class SentinelEvents implements AutoCloseable {

    private final long start = System.nanoTime();

    private final RedisClient client = RedisClient.create();

    private final List<StatefulRedisPubSubConnection<String, String>> connections = new ArrayList<>();

    private final List<Event> events = new CopyOnWriteArrayList<>();

    SentinelEvents(List<Integer> sentinelPorts) {
        try {
            for (int i = 0; i < sentinelPorts.size(); i++) {
                int sentinel = i;
                StatefulRedisPubSubConnection<String, String> connection = this.client
                    .connectPubSub(RedisURI.create(RedisEndpoint.HOST, sentinelPorts.get(i)));
                this.connections.add(connection);
                connection.addListener(new RedisPubSubAdapter<>() {

                    @Override
                    public void message(String pattern, String channel, String message) {
                        SentinelEvents.this.events.add(new Event(System.nanoTime(), sentinel, channel, message));
                    }

                });
                connection.sync().psubscribe("*");
            }
        }
        catch (RuntimeException ex) {
            close();
            throw ex;
        }
    }

    /**
     * Waits, for a minute at most, until a sentinel announces that the master moved. A sentinel
     * whose process stalled for two seconds (a busy machine) enters TILT mode, and does nothing for
     * 30 seconds: a failover can take that much longer.
     * @return the first {@code +switch-master} announcement
     * @throws IllegalStateException if none came in time
     */
    public Event awaitSwitch() {
        return await("+switch-master");
    }

    /**
     * Waits, for a minute at most, until a sentinel announces something.
     * @param channel what, such as {@code +tilt}
     * @return the first such announcement
     * @throws IllegalStateException if none came in time
     */
    public Event await(String channel) {
        try {
            Poll.until(() -> first(channel).isPresent(), "a sentinel to announce " + channel,
                    EmbeddedRedisSentinel.ACTING);
        }
        catch (IllegalStateException ex) {
            throw new IllegalStateException(ex.getMessage() + "; the sentinels announced:\n" + this, ex);
        }
        return first(channel).orElseThrow();
    }

    private Optional<Event> first(String channel) {
        return this.events.stream().filter(event -> event.channel().equals(channel)).findFirst();
    }

    /**
     * Returns every event heard so far, in the order they arrived.
     * @return the events
     */
    public List<Event> events() {
        return List.copyOf(this.events);
    }

    /** One line per event, with its time in seconds since this started listening. */
    @Override
    public String toString() {
        return this.events.stream()
            .map(event -> String.format("%8.3f s  sentinel %d  %s %s", (event.nanoTime() - this.start) / 1e9,
                    event.sentinel(), event.channel(), event.message()))
            .collect(Collectors.joining("\n"));
    }

    @Override
    public void close() {
        this.connections.forEach(StatefulRedisPubSubConnection::close);
        this.client.shutdown();
    }

    /**
     * One announcement.
     *
     * @param nanoTime when it arrived, in {@link System#nanoTime()}
     * @param sentinel the index of the sentinel that made it
     * @param channel what happened, such as {@code +switch-master}
     * @param message its details, such as {@code mymaster 127.0.0.1 6379 127.0.0.1 6380}
     * @since 0.1.0
     */
    public record Event(long nanoTime, int sentinel, String channel, String message) {

        /**
         * Returns the port of the new master, for a {@code +switch-master} announcement
         * ({@code <name> <old ip> <old port> <new ip> <new port>}).
         * @return the port
         */
        public int newMasterPort() {
            String[] parts = this.message.split(" ");
            return Integer.parseInt(parts[4]);
        }

    }

}
