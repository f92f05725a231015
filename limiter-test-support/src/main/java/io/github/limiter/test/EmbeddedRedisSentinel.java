package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;
import redis.embedded.RedisInstance;
import redis.embedded.RedisSentinel;

import org.springframework.util.ReflectionUtils;

/**
 * A real Redis Sentinel set-up on loopback ports: a master, a replica of it, and sentinels that
 * watch them under the name {@value #MASTER}. Returns once the replica is in sync and every
 * sentinel knows it.
 */
public final class EmbeddedRedisSentinel implements AutoCloseable {

    /** The name the sentinels know the master by. */
    public static final String MASTER = "mymaster";

    /**
     * How long to wait for the sentinels to act: a sentinel whose process stalled for two seconds
     * (a busy machine) enters TILT mode and does nothing for 30 seconds.
     */
    static final Duration ACTING = Duration.ofSeconds(60);

    private final List<EmbeddedRedis> servers = new ArrayList<>();

    private final List<RedisSentinel> sentinels = new ArrayList<>();

    private final List<Integer> sentinelPorts = new ArrayList<>();

    private EmbeddedRedisSentinel() {
    }

    /**
     * Starts a master, one replica and {@code sentinels} sentinels.
     * @param sentinels how many sentinels
     * @return the running set-up
     */
    public static EmbeddedRedisSentinel start(int sentinels) {
        EmbeddedRedisSentinel setUp = new EmbeddedRedisSentinel();
        try {
            EmbeddedRedis master = EmbeddedRedis.start();
            setUp.servers.add(master);
            EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master);
            setUp.servers.add(replica);
            for (int i = 0; i < sentinels; i++) {
                int port = freePort();
                RedisSentinel sentinel = RedisSentinel.newRedisSentinel()
                    .executableProvider(RedisBinary.get().provider())
                    .bind("127.0.0.1")
                    .port(port)
                    .masterName(MASTER)
                    .masterPort(master.port())
                    .quorumSize(1)
                    .downAfterMilliseconds(1000)
                    .failOverTimeout(3000)
                    .build();
                sentinel.start();
                setUp.sentinels.add(sentinel);
                setUp.sentinelPorts.add(port);
            }
            replica.awaitMasterLinkUp();
            for (int i = 0; i < sentinels; i++) {
                int sentinel = i;
                setUp.await(() -> !setUp.onSentinel(sentinel, commands -> commands.replicas(MASTER)).isEmpty(),
                        "sentinel " + i + " to find the replica");
            }
            return setUp;
        }
        catch (IOException ex) {
            setUp.close();
            throw new UncheckedIOException(ex);
        }
        catch (RuntimeException ex) {
            setUp.close();
            throw ex;
        }
    }

    /**
     * Returns the sentinels, as {@code spring.data.redis.sentinel.nodes} takes them.
     * @return {@code host:port} of every sentinel
     */
    public List<String> sentinelNodes() {
        return this.sentinelPorts.stream().map(port -> "127.0.0.1:" + port).toList();
    }

    /**
     * Returns the data servers: the first started as master, the second as its replica.
     * @return the servers
     */
    public List<EmbeddedRedis> servers() {
        return this.servers;
    }

    /**
     * Runs commands against a data server.
     * @param server the server's index
     * @param work the commands
     * @param <T> the result type
     * @return the work's result
     */
    public <T> T onServer(int server, Function<RedisCommands<String, String>, T> work) {
        return this.servers.get(server).withCommands(work);
    }

    /**
     * Runs commands against a sentinel.
     * @param sentinel the sentinel's index
     * @param work the commands
     * @param <T> the result type
     * @return the work's result
     */
    public <T> T onSentinel(int sentinel, Function<RedisSentinelCommands<String, String>, T> work) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", this.sentinelPorts.get(sentinel)));
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            return work.apply(connection.sync());
        }
        finally {
            client.shutdown();
        }
    }

    /**
     * Starts listening to what every sentinel announces; close it when done.
     * @return the announcements from now on
     * @since 0.1.0
     */
    public SentinelEvents listen() {
        return new SentinelEvents(this.sentinelPorts);
    }

    /**
     * Asks the first sentinel for a failover, as an operator's {@code SENTINEL FAILOVER} would: the
     * sentinel promotes the replica and announces the switch at once, while the old master keeps
     * accepting writes until the sentinels demote it, about ten seconds later.
     * @since 0.1.0
     */
    public void failover() {
        onSentinel(0, commands -> commands.failover(MASTER));
    }

    /**
     * Waits, for a minute at most, until a server is a replica of another with its link up: once
     * it is, a demoted master has thrown away what it had and loaded the new master's data. The
     * sentinels demote a replaced master about ten seconds after the switch, or 30 seconds later
     * if they entered TILT mode on a busy machine.
     * @param replica the index of the server that must be a replica
     * @param master the index of its master
     * @since 0.1.0
     */
    public void awaitReplicaOf(int replica, int master) {
        int masterPort = this.servers.get(master).port();
        Poll.until(() -> {
            String info = onServer(replica, commands -> commands.info("replication"));
            return info.contains("role:slave") && info.contains("master_port:" + masterPort + "\r\n")
                    && info.contains("master_link_status:up");
        }, "server " + replica + " to be a replica of server " + master + " in sync", ACTING);
    }

    /**
     * Stops every sentinel process (SIGSTOP) for a while, then lets them go on (SIGCONT), as a
     * stalled host would. A sentinel that finds two seconds gone between two of its ticks enters
     * TILT mode ({@code +tilt}) and does nothing for the next 30 seconds: neither fails over nor
     * demotes a replaced master.
     * @param pause how long, such as 2.5 seconds to make them enter TILT mode
     * @since 0.1.0
     */
    public void stall(Duration pause) {
        List<String> pids = this.sentinels.stream().map(sentinel -> Long.toString(process(sentinel).pid())).toList();
        signal("-STOP", pids);
        try {
            LockSupport.parkNanos(pause.toNanos());
        }
        finally {
            signal("-CONT", pids);
        }
    }

    private static Process process(RedisSentinel sentinel) {
        // embedded-redis keeps the process to itself, as for EmbeddedRedis#kill()
        Field field = ReflectionUtils.findField(RedisInstance.class, "process");
        if (field == null) {
            throw new IllegalStateException("This embedded-redis version does not expose its process");
        }
        ReflectionUtils.makeAccessible(field);
        return (Process) ReflectionUtils.getField(field, sentinel);
    }

    private static void signal(String signal, List<String> pids) {
        List<String> command = new ArrayList<>(List.of("kill", signal));
        command.addAll(pids);
        try {
            int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Waits, polling a few times a second for at most 30 seconds, until {@code condition} holds.
     * @param condition the condition
     * @param what what is awaited, for the error
     */
    public void await(BooleanSupplier condition, String what) {
        Poll.until(condition, what);
    }

    @Override
    public void close() {
        for (RedisSentinel sentinel : this.sentinels) {
            try {
                sentinel.stop();
            }
            catch (IOException ex) {
                // stopping the others matters more
            }
        }
        this.servers.forEach(EmbeddedRedis::close);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

}
