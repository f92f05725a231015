package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.function.Function;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import redis.embedded.RedisInstance;
import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ReflectionUtils;

/**
 * A real {@code redis-server} process from the {@code embedded-redis} artifact, on a free loopback
 * port, with persistence switched off so that nothing is written to the working directory.
 *
 * <p>Used by the test extension and by the sample app, which starts one when no Redis is
 * configured.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final int START_ATTEMPTS = 3;

    private final RedisServer server;

    private final int port;

    private EmbeddedRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /**
     * Starts a Redis server on a free port of {@code 127.0.0.1}.
     * @return the running server
     * @throws UncheckedIOException if no server could be started after a few attempts
     */
    public static EmbeddedRedis start() {
        IOException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                return startOn(freePort());
            }
            catch (IOException ex) {
                // Another process may have taken the port between probing and binding.
                last = ex;
            }
        }
        throw new UncheckedIOException("Could not start an embedded Redis server", last);
    }

    /**
     * Starts a Redis server on the given port of {@code 127.0.0.1}, such as the port of a server
     * that was stopped, to restart it.
     * @param port the port
     * @return the running server
     * @throws UncheckedIOException if the server could not be started
     */
    public static EmbeddedRedis start(int port) {
        try {
            return startOn(port);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start an embedded Redis server on port " + port, ex);
        }
    }

    private static EmbeddedRedis startOn(int port, String... settings) throws IOException {
        RedisServerBuilder builder = RedisServer.newRedisServer()
            .port(port)
            .setting("bind 127.0.0.1")
            .setting("save \"\"")
            .setting("appendonly no");
        for (String setting : settings) {
            builder.setting(setting);
        }
        RedisServer server = builder.build();
        server.start();
        return new EmbeddedRedis(server, port);
    }

    /**
     * Starts a Redis server with extra configuration lines, on a free port.
     * @param settings lines of {@code redis.conf}, such as {@code "cluster-enabled yes"}
     * @return the running server
     */
    static EmbeddedRedis startWith(String... settings) {
        IOException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                return startOn(freePort(), settings);
            }
            catch (IOException ex) {
                last = ex;
            }
        }
        throw new UncheckedIOException("Could not start an embedded Redis server", last);
    }

    /**
     * Returns the port the server listens on.
     * @return the port
     */
    public int port() {
        return this.port;
    }

    /**
     * Returns the host the server listens on.
     * @return always {@code 127.0.0.1}
     */
    public String host() {
        return "127.0.0.1";
    }

    /**
     * Creates and starts a Lettuce connection factory for this server; the caller destroys it.
     * @return a started connection factory
     */
    public LettuceConnectionFactory newConnectionFactory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(host(), this.port));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * Runs Redis commands against this server over a connection of their own, closed afterwards.
     * @param work the commands
     * @param <T> the result type
     * @return the work's result
     */
    public <T> T withCommands(Function<RedisCommands<String, String>, T> work) {
        RedisClient client = RedisClient.create(RedisURI.create(host(), this.port));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return work.apply(connection.sync());
        }
        finally {
            client.shutdown();
        }
    }

    /**
     * Returns whether the server process is running.
     * @return {@code true} while the process is alive
     */
    public boolean isRunning() {
        return this.server.isActive();
    }

    /**
     * Kills the server process at once (SIGKILL), as a crash would: no shutdown, no save. The
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
            throw new IllegalStateException("No running redis-server on port " + this.port + " to kill");
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
     * Stops the server process. Calling it again does nothing.
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
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not find a free port", ex);
        }
    }

}
