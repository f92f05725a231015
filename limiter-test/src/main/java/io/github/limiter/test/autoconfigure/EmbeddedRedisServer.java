package io.github.limiter.test.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * The one real {@code redis-server} process of a test JVM, started on first use on a free port of
 * {@code 127.0.0.1} and stopped when the JVM exits. It runs the executable bundled in
 * {@code embedded-redis} (Redis 6.2), unless the system property {@value #PROPERTY} or the
 * environment variable {@value #ENVIRONMENT_VARIABLE} names another, such as
 * {@code /usr/bin/redis-server}. Persistence is off, so nothing is written to the working
 * directory.
 */
final class EmbeddedRedisServer {

    /** Names the redis-server (or valkey-server) executable to run instead of the bundled one. */
    static final String PROPERTY = "limiter.test.redis-server";

    /** The same as {@link #PROPERTY}, for a build that cannot pass a system property. */
    static final String ENVIRONMENT_VARIABLE = "LIMITER_TEST_REDIS_SERVER";

    static final String HOST = "127.0.0.1";

    private static final int START_ATTEMPTS = 3;

    private static final Log logger = LogFactory.getLog(EmbeddedRedisServer.class);

    private final RedisServer server;

    private final int port;

    private EmbeddedRedisServer(RedisServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /**
     * Returns the server of this JVM, starting it on first use.
     * @return the running server
     * @throws UncheckedIOException if no server could be started after a few attempts
     */
    static EmbeddedRedisServer shared() {
        return Shared.SERVER;
    }

    int port() {
        return this.port;
    }

    boolean isRunning() {
        return this.server.isActive();
    }

    private static EmbeddedRedisServer start(File executable) {
        IOException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = freePort();
            try {
                RedisServer server = RedisServer.newRedisServer()
                    .executableProvider(() -> executable)
                    .port(port)
                    .setting("bind " + HOST)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    // embedded-redis starts the process in the executable's folder: /usr/bin for an installed one
                    .setting("dir " + System.getProperty("java.io.tmpdir"))
                    .build();
                server.start();
                logger.info("Embedded Redis for tests on " + HOST + ":" + port + " (" + executable + ")");
                return new EmbeddedRedisServer(server, port);
            }
            catch (IOException ex) {
                // another process may have taken the port between probing and binding
                last = ex;
            }
        }
        throw new UncheckedIOException("Could not start an embedded Redis server with " + executable, last);
    }

    /**
     * Returns the executable named by {@value #PROPERTY} or {@value #ENVIRONMENT_VARIABLE}, or else
     * the bundled one.
     */
    static File executable(@Nullable String named) {
        if (named == null || named.isBlank()) {
            try {
                // once per JVM: embedded-redis would otherwise write a copy to a new folder per server
                return ExecutableProvider.newJarResourceProvider().get();
            }
            catch (IOException ex) {
                throw new UncheckedIOException("Could not extract the redis-server of embedded-redis", ex);
            }
        }
        File executable = new File(named).getAbsoluteFile();
        if (!executable.isFile() || !executable.canExecute()) {
            throw new IllegalStateException(PROPERTY + " (or " + ENVIRONMENT_VARIABLE + ") names '" + named
                    + "', which is not an executable file");
        }
        return executable;
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

    private void stop() {
        try {
            if (this.server.isActive()) {
                this.server.stop();
            }
        }
        catch (IOException ex) {
            // the JVM is exiting: nothing more can be done than say so
            logger.warn("Could not stop the embedded Redis on port " + this.port, ex);
        }
    }

    /** Holds the server; the JVM starts it on first access, once, thread-safely. */
    private static final class Shared {

        static final EmbeddedRedisServer SERVER = startWithShutdownHook();

        private static EmbeddedRedisServer startWithShutdownHook() {
            String named = System.getProperty(PROPERTY, System.getenv(ENVIRONMENT_VARIABLE));
            EmbeddedRedisServer server = start(executable(named));
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "limiter-test-redis-shutdown"));
            return server;
        }

    }

}
