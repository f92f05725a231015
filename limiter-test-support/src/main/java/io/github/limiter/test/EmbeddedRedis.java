package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import redis.embedded.RedisInstance;
import redis.embedded.RedisServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;
import org.springframework.util.ReflectionUtils;

/**
 * A real {@code redis-server} process from the {@code embedded-redis} artifact, on a free loopback
 * port, with persistence switched off so that nothing is written to the working directory. Besides
 * a plain server it starts one on TLS only ({@link #startTls}), one on a unix socket only
 * ({@link #startOnSocket}) and a replica of another ({@link #startReplicaOf}).
 *
 * <p>Every server and sentinel of a JVM runs the same executable: the one that {@code embedded-redis}
 * bundles (Redis 6.2), unless the system property {@code limiter.test.redis-server} or the
 * environment variable {@code LIMITER_TEST_REDIS_SERVER} names another, such as
 * {@code /usr/bin/redis-server} or a {@code valkey-server}. Which one, and its version, is written to
 * standard output when the first server starts.
 *
 * <p>Used by the test extension and by the sample app, which starts one when no Redis is
 * configured.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private final RedisServer server;

    private final RedisEndpoint endpoint;

    private final @Nullable Path directory;

    private EmbeddedRedis(RedisServer server, RedisEndpoint endpoint, @Nullable Path directory) {
        this.server = server;
        this.endpoint = endpoint;
        this.directory = directory;
    }

    /**
     * Starts a Redis server on a free port of {@code 127.0.0.1}.
     * @return the running server
     * @throws UncheckedIOException if no server could be started after a few attempts
     */
    public static EmbeddedRedis start() {
        return startWith();
    }

    /**
     * Starts a Redis server on the given port of {@code 127.0.0.1}, such as the port of a server
     * that was stopped, to restart it.
     * @param port the port
     * @param settings extra lines of {@code redis.conf}, as for {@link #startWith}
     * @return the running server
     * @throws UncheckedIOException if the server could not be started
     */
    public static EmbeddedRedis start(int port, String... settings) {
        try {
            return new EmbeddedRedis(RedisLauncher.launch(port, settings), RedisEndpoint.tcp(port), null);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start an embedded Redis server on port " + port, ex);
        }
    }

    /**
     * Starts a Redis server that speaks TLS only, on a free port of {@code 127.0.0.1}, with the
     * server certificate of {@code certificates}. Clients need not present a certificate.
     * {@link #withCommands} and {@link #newConnectionFactory()} connect over TLS, trusting the CA of
     * {@code certificates} and checking the host name.
     * @param certificates the CA and server certificate; the caller closes them after the server
     * @return the running server, whose {@link #port()} is the TLS port
     * @throws UncheckedIOException if no server could be started after a few attempts
     * @since 0.1.0
     */
    public static EmbeddedRedis startTls(TestCertificates certificates) {
        Assert.notNull(certificates, "certificates must not be null");
        return RedisLauncher.onFreePort(
                port -> new EmbeddedRedis(RedisLauncher.launch(0, tlsSettings(port, certificates)),
                        RedisEndpoint.tls(port, certificates.caCertificateFile()), null));
    }

    private static String[] tlsSettings(int port, TestCertificates certificates) {
        return new String[] { "tls-port " + port, "tls-cert-file " + certificates.serverCertificateFile(),
                "tls-key-file " + certificates.serverKeyFile(), "tls-ca-cert-file " + certificates.caCertificateFile(),
                // tests here are about the server's certificate; the client presents none
                "tls-auth-clients no" };
    }

    /**
     * Starts a Redis server that listens on a unix socket only, in a temporary directory of its own
     * that {@link #close()} deletes.
     *
     * <p>Lettuce reaches a unix socket on Linux only through Netty's native epoll transport, so the
     * caller's test class path needs {@code io.netty:netty-transport-native-epoll} (classifier
     * {@code linux-x86_64}) for {@link #withCommands} and {@link #newConnectionFactory()}.
     * @return the running server
     * @throws UncheckedIOException if the server could not be started
     * @since 0.1.0
     */
    public static EmbeddedRedis startOnSocket() {
        Path directory = TempDirectory.create("limiter-redis-socket-");
        Path socket = directory.resolve("redis.sock");
        try {
            return new EmbeddedRedis(RedisLauncher.launch(0, "unixsocket " + socket, "unixsocketperm 700"),
                    RedisEndpoint.socket(socket), directory);
        }
        catch (IOException ex) {
            TempDirectory.delete(directory);
            throw new UncheckedIOException("Could not start an embedded Redis server on a unix socket", ex);
        }
    }

    /**
     * Starts a Redis server on a free port as a replica of {@code master}. It returns before the
     * replica is in sync: see {@link #awaitMasterLinkUp()}.
     * @param master a plain (not TLS, not unix socket) server
     * @return the running replica
     * @throws UncheckedIOException if no server could be started after a few attempts
     * @since 0.1.0
     */
    public static EmbeddedRedis startReplicaOf(EmbeddedRedis master) {
        Assert.notNull(master, "master must not be null");
        if (!master.endpoint.isPlainTcp()) {
            throw new IllegalArgumentException("A replica here needs a master on a plain TCP port, not on "
                    + master.endpoint);
        }
        return startWith("replicaof " + master.host() + " " + master.port());
    }

    /**
     * Starts Redis 2.8.19 on a free port of {@code 127.0.0.1}, whatever executable the other servers
     * run: a Redis older than the limiter supports, for tests that it is refused.
     * @return the running server
     * @throws UncheckedIOException if no server could be started after a few attempts
     * @since 0.1.0
     */
    public static EmbeddedRedis startRedis28() {
        return RedisLauncher.onFreePort(port -> new EmbeddedRedis(RedisLauncher.launch(RedisBinary.redis28(), port),
                RedisEndpoint.tcp(port), null));
    }

    /**
     * Starts a Redis server with extra configuration lines, on a free port of {@code 127.0.0.1}:
     * for a server configured as a test needs it, such as one that evicts keys when full
     * ({@code "maxmemory 2mb", "maxmemory-policy allkeys-lru"}).
     * @param settings lines of {@code redis.conf}, such as {@code "cluster-enabled yes"}
     * @return the running server
     * @throws UncheckedIOException if no server could be started after a few attempts
     * @since 0.1.0
     */
    public static EmbeddedRedis startWith(String... settings) {
        return RedisLauncher.onFreePort(
                port -> new EmbeddedRedis(RedisLauncher.launch(port, settings), RedisEndpoint.tcp(port), null));
    }

    /**
     * Returns the port the server listens on: the TLS port of a server started with
     * {@link #startTls}.
     * @return the port
     * @throws IllegalStateException if the server listens on a unix socket only
     */
    public int port() {
        return this.endpoint.port();
    }

    /**
     * Returns the host the server listens on.
     * @return always {@code 127.0.0.1}
     */
    public String host() {
        return RedisEndpoint.HOST;
    }

    /**
     * Returns the version the server reports to clients ({@code redis_version} of {@code INFO}); a
     * Valkey server reports the Redis version it is compatible with.
     * @return the version, such as {@code 7.0.15}
     * @since 0.1.0
     */
    public String redisVersion() {
        String info = withCommands(commands -> commands.info("server"));
        return info.lines()
            .filter(line -> line.startsWith("redis_version:"))
            .map(line -> line.substring("redis_version:".length()).strip())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("The server on " + this.endpoint + " gave no version"));
    }

    /**
     * Returns the unix socket of a server started with {@link #startOnSocket()}.
     * @return the socket's path
     * @throws IllegalStateException if the server listens on TCP
     * @since 0.1.0
     */
    public Path socketPath() {
        return this.endpoint.socket();
    }

    /**
     * Creates and starts a Lettuce connection factory for this server; the caller destroys it.
     * @return a started connection factory
     */
    public LettuceConnectionFactory newConnectionFactory() {
        return this.endpoint.newConnectionFactory();
    }

    /**
     * Returns how many times the server has run each command, from its own statistics
     * ({@code INFO commandstats}); the reading itself counts as one {@code info} after it.
     * @return the calls by lower-case command name, such as {@code evalsha} or {@code ping}
     */
    public Map<String, Long> commandCalls() {
        String stats = withCommands(commands -> commands.info("commandstats"));
        Map<String, Long> calls = new HashMap<>();
        stats.lines()
            .filter(line -> line.startsWith("cmdstat_"))
            .forEach(line -> calls.put(line.substring("cmdstat_".length(), line.indexOf(':')),
                    Long.parseLong(line.replaceAll("^[^:]+:calls=(\\d+),.*$", "$1"))));
        return calls;
    }

    /**
     * Returns the calls of one command in what {@link #commandCalls()} returned, its subcommands
     * included: Redis 7 counts {@code CONFIG GET} as {@code config|get}, Redis 6 as {@code config}.
     * @param calls the calls by command, from {@link #commandCalls()}
     * @param command the lower-case command name, such as {@code config}
     * @return the calls
     * @since 0.1.0
     */
    public static long callsOf(Map<String, Long> calls, String command) {
        return calls.entrySet()
            .stream()
            .filter(call -> call.getKey().equals(command) || call.getKey().startsWith(command + "|"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    }

    /**
     * Returns how many keys the server has evicted since it started ({@code evicted_keys} of
     * {@code INFO stats}), to compare with what a client reports.
     * @return the evicted keys
     * @since 0.1.0
     */
    public long evictedKeys() {
        return withCommands(commands -> commands.info("stats")).lines()
            .filter(line -> line.startsWith("evicted_keys:"))
            .mapToLong(line -> Long.parseLong(line.substring("evicted_keys:".length()).strip()))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("INFO stats has no evicted_keys"));
    }

    /**
     * Runs Redis commands against this server over a connection of their own, closed afterwards.
     * @param work the commands
     * @param <T> the result type
     * @return the work's result
     */
    public <T> T withCommands(Function<RedisCommands<String, String>, T> work) {
        return this.endpoint.withCommands(work);
    }

    /**
     * Waits, for 30 seconds at most, until this replica has a working link to its master and has
     * loaded the master's data.
     * @throws IllegalStateException if the link was not up in time
     * @since 0.1.0
     */
    public void awaitMasterLinkUp() {
        Poll.until(() -> withCommands(commands -> commands.info("replication")).contains("master_link_status:up"),
                "the replica on " + this.endpoint + " to sync with its master");
    }

    /**
     * Returns whether the server process is running.
     * @return {@code true} while the process is alive
     */
    public boolean isRunning() {
        return this.server.isActive();
    }

    /**
     * Kills the server process at once (SIGKILL), as a crash would: no shutdown, no save. A plain
     * server can then be started again on the same port with {@link #start(int)}.
     */
    public void kill() {
        // embedded-redis keeps the process to itself; it is the one handle on exactly this server
        Field field = ReflectionUtils.findField(RedisInstance.class, "process");
        if (field == null) {
            throw new IllegalStateException("This embedded-redis version does not expose its process");
        }
        ReflectionUtils.makeAccessible(field);
        Process process = (Process) ReflectionUtils.getField(field, this.server);
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("No running redis-server on " + this.endpoint + " to kill");
        }
        process.destroyForcibly();
        try {
            process.waitFor();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Stops the server process and deletes the directory of its unix socket, if it has one. Calling
     * it again does nothing.
     */
    @Override
    public void close() {
        try {
            if (this.server.isActive()) {
                this.server.stop();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not stop the embedded Redis server", ex);
        }
        finally {
            if (this.directory != null) {
                TempDirectory.delete(this.directory);
            }
        }
    }

}
