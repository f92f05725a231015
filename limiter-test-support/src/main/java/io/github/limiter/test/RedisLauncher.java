package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * Starts {@code redis-server} processes from the {@code embedded-redis} binary with persistence
 * off, on free loopback ports.
 */
final class RedisLauncher {

    private static final int START_ATTEMPTS = 3;

    private static final List<String> BASE_SETTINGS = List.of("bind " + RedisEndpoint.HOST, "save \"\"",
            "appendonly no",
            // a replica's full sync would otherwise write dump.rdb on both sides, saving off or not
            "repl-diskless-sync yes", "repl-diskless-sync-delay 0", "repl-diskless-load swapdb");

    private RedisLauncher() {
    }

    /**
     * Starts redis-server with {@code --port tcpPort}, which overrides any {@code port} line, so
     * {@code 0} switches plain TCP off. embedded-redis returns once the log says the server is
     * "ready to accept connections", a line Redis 6.2 writes for TCP, TLS and unix sockets alike.
     */
    static RedisServer launch(int tcpPort, String... settings) throws IOException {
        RedisServerBuilder builder = RedisServer.newRedisServer().port(tcpPort);
        BASE_SETTINGS.forEach(builder::setting);
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
