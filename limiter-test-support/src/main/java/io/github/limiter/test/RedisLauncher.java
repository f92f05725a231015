package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * Starts {@code redis-server} processes with persistence off, on free loopback ports, from the
 * executable {@link RedisBinary} chose: the {@code embedded-redis} one unless the build names
 * another.
 */
final class RedisLauncher {

    private static final int START_ATTEMPTS = 3;

    private static final List<String> BASE_SETTINGS = List.of("bind " + RedisEndpoint.HOST, "save \"\"",
            "appendonly no",
            // embedded-redis starts the process in the executable's folder: /usr/bin for an installed one
            "dir " + System.getProperty("java.io.tmpdir"));

    /**
     * A replica's full sync would otherwise write dump.rdb on both sides, saving off or not. A server
     * older than 6.0 would refuse {@code repl-diskless-load}, and write its dump.rdb in {@code dir}.
     */
    private static final List<String> SINCE_REDIS_6_SETTINGS = List.of("repl-diskless-sync yes",
            "repl-diskless-sync-delay 0", "repl-diskless-load swapdb");

    /**
     * From Redis 7 on, DEBUG is refused unless allowed; tests use DEBUG SLEEP to make Redis slow. An
     * older server would refuse the setting itself.
     */
    private static final List<String> SINCE_REDIS_7_SETTINGS = List.of("enable-debug-command local");

    private RedisLauncher() {
    }

    /**
     * Starts the redis-server of this JVM ({@link RedisBinary#get()}).
     * @see #launch(RedisBinary, int, String...)
     */
    static RedisServer launch(int tcpPort, String... settings) throws IOException {
        return launch(RedisBinary.get(), tcpPort, settings);
    }

    /**
     * Starts redis-server with {@code --port tcpPort}, which overrides any {@code port} line, so
     * {@code 0} switches plain TCP off. embedded-redis returns once the log says the server is
     * "ready to accept connections", a line every version writes: Redis 7 and Valkey add the kind of
     * listener after it.
     */
    static RedisServer launch(RedisBinary binary, int tcpPort, String... settings) throws IOException {
        RedisServerBuilder builder = RedisServer.newRedisServer().executableProvider(binary.provider()).port(tcpPort);
        BASE_SETTINGS.forEach(builder::setting);
        if (binary.majorVersion() >= 6) {
            SINCE_REDIS_6_SETTINGS.forEach(builder::setting);
        }
        if (binary.majorVersion() >= 7) {
            SINCE_REDIS_7_SETTINGS.forEach(builder::setting);
        }
        for (String setting : settings) {
            builder.setting(setting);
        }
        RedisServer server = builder.build();
        server.start();
        return server;
    }

    /**
     * Runs {@code start} on a free port, and again on another if it fails, a few times at most.
     */
    static <T> T onFreePort(Start<T> start) {
        IOException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                return start.on(freePort());
            }
            catch (IOException ex) {
                // Another process may have taken the port between probing and binding.
                last = ex;
            }
        }
        throw new UncheckedIOException("Could not start an embedded Redis server", last);
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

    /** Starts a server on a port that was free a moment ago. */
    @FunctionalInterface
    interface Start<T> {

        T on(int port) throws IOException;

    }

}
