package io.github.limiter.instances;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy in front of a Redis server that answers the handshake and {@code PING} but holds
 * every other command for a while, as a busy host does on some Redis versions only (a
 * {@code CLIENT PAUSE ... WRITE} holds {@code SCRIPT LOAD} on Redis 6.2, not on 7.0): the first
 * {@code INFO}, {@code SCRIPT}, {@code EVALSHA} or {@code EVAL} a client sends starts the hold, and
 * each of them sent before it ends waits for its end, with everything its client sends after it.
 * Other commands pass at once.
 */
final class HoldingProxy implements AutoCloseable {

    private static final List<String> HELD = List.of("INFO", "SCRIPT", "EVALSHA", "EVAL");

    private final ServerSocket server;

    private final int redisPort;

    private final long holdNanos;

    // when the hold ends, in System.nanoTime(); 0 until a held command starts it
    private final AtomicLong heldUntil = new AtomicLong();

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private HoldingProxy(ServerSocket server, int redisPort, Duration hold) {
        this.server = server;
        this.redisPort = redisPort;
        this.holdNanos = hold.toNanos();
    }

    /** Starts a proxy on a free loopback port to the Redis on {@code redisPort} of the loopback address. */
    static HoldingProxy start(int redisPort, Duration hold) {
        try {
            HoldingProxy proxy = new HoldingProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
                    redisPort, hold);
            daemon("holding-proxy", proxy::accept);
            return proxy;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    int port() {
        return this.server.getLocalPort();
    }

    private void accept() {
        while (!this.server.isClosed()) {
            try {
                Socket client = this.server.accept();
                Socket redis = new Socket(InetAddress.getLoopbackAddress(), this.redisPort);
                this.sockets.add(client);
                this.sockets.add(redis);
                daemon("holding-proxy-up", () -> pump(client, redis, true));
                daemon("holding-proxy-down", () -> pump(redis, client, false));
            }
            catch (IOException ex) {
                // closed
            }
        }
    }

    private void pump(Socket from, Socket to, boolean holding) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                if (holding && holds(new String(buffer, 0, read, StandardCharsets.US_ASCII))) {
                    awaitEndOfHold();
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        }
        catch (IOException ex) {
            // either side closed
        }
        finally {
            close(from);
            close(to);
        }
    }

    private boolean holds(String sent) {
        boolean held = HELD.stream().anyMatch(command -> sent.contains("\r\n" + command + "\r\n"));
        if (held) {
            this.heldUntil.compareAndSet(0, System.nanoTime() + this.holdNanos);
        }
        return held;
    }

    private void awaitEndOfHold() {
        long until = this.heldUntil.get();
        while (until - System.nanoTime() > 0 && !this.server.isClosed()) {
            LockSupport.parkNanos(Math.min(until - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(10)));
        }
    }

    @Override
    public void close() {
        close(this.server);
        this.sockets.forEach(HoldingProxy::close);
    }

    private static void close(AutoCloseable closeable) {
        try {
            closeable.close();
        }
        catch (Exception ex) {
            // closing anyway
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

}
