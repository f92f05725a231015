package io.github.limiter.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on the loopback interface that passes bytes on after a delay, in both directions:
 * a Redis that answers, but late, as behind a slow network. The delay can change while connections
 * are open (connect with none, then add some), and applies to the bytes read after the change.
 * Bytes keep their order whatever the delay does.
 */
public final class DelayingProxy implements AutoCloseable {

    private final ServerSocket server;

    private final InetSocketAddress target;

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private volatile long upNanos;

    private volatile long downNanos;

    // chunks read and not yet written, in either direction
    private final AtomicInteger inFlight = new AtomicInteger();

    private volatile boolean closed;

    private DelayingProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /**
     * Starts a proxy to a server, with no delay yet, on a free port of the loopback interface.
     * @param host the server's host
     * @param port the server's port
     * @return the proxy, accepting connections
     */
    public static DelayingProxy start(String host, int port) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            DelayingProxy proxy = new DelayingProxy(server, new InetSocketAddress(host, port));
            daemon("delaying-proxy-" + server.getLocalPort(), proxy::accept).start();
            return proxy;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start the proxy", ex);
        }
    }

    /**
     * Returns the port the proxy listens on, on the loopback interface.
     * @return the port
     */
    public int port() {
        return this.server.getLocalPort();
    }

    /**
     * Returns the host the proxy listens on.
     * @return the loopback address
     */
    public String host() {
        return this.server.getInetAddress().getHostAddress();
    }

    /**
     * Sets the delay of each direction: a request reaches the server this long after it was sent,
     * and its reply the client this long after the server wrote it.
     * @param oneWay the delay per direction; zero for none
     */
    public void delay(Duration oneWay) {
        delay(oneWay, oneWay);
    }

    /**
     * Sets the delay of each direction on its own.
     * @param up the delay of what clients send to the server
     * @param down the delay of what the server sends back
     */
    public void delay(Duration up, Duration down) {
        this.upNanos = up.toNanos();
        this.downNanos = down.toNanos();
    }

    /**
     * Closes every connection through the proxy at once, both ways, dropping the bytes not yet
     * passed on, as a network that fails does; the proxy accepts new connections.
     */
    public void dropConnections() {
        this.sockets.forEach(DelayingProxy::closeQuietly);
        this.sockets.clear();
    }

    /**
     * Returns whether every byte read so far, either way, has been passed on.
     * @return {@code true} if nothing waits in the proxy
     */
    public boolean idle() {
        return this.inFlight.get() == 0;
    }

    /** Closes the proxy and every connection through it. */
    @Override
    public void close() {
        this.closed = true;
        closeQuietly(this.server);
        this.sockets.forEach(DelayingProxy::closeQuietly);
    }

    private void accept() {
        while (!this.closed) {
            try {
                Socket client = this.server.accept();
                Socket upstream = new Socket();
                this.sockets.add(client);
                this.sockets.add(upstream);
                try {
                    upstream.connect(this.target, 2000);
                }
                catch (IOException ex) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                pipe(client, upstream, "up", true);
                pipe(upstream, client, "down", false);
            }
            catch (IOException ex) {
                if (!this.closed) {
                    throw new UncheckedIOException("The proxy stopped accepting connections", ex);
                }
            }
        }
    }

    /** Reads from one socket and writes to the other, each chunk once its delay has passed. */
    private void pipe(Socket from, Socket to, String direction, boolean up) {
        BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
        String name = "delaying-proxy-" + from.getPort() + "-" + direction;
        daemon(name + "-read", () -> {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = from.getInputStream();
                int read;
                while ((read = in.read(buffer)) != -1) {
                    this.inFlight.incrementAndGet();
                    long delay = up ? this.upNanos : this.downNanos;
                    chunks.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime() + delay));
                }
            }
            catch (IOException ex) {
                // closed
            }
            chunks.add(Chunk.END);
        }).start();
        daemon(name + "-write", () -> {
            boolean open = true;
            OutputStream out = null;
            try {
                // until the reader ends: once a write fails, what is left is dropped, still counted off
                for (Chunk chunk = chunks.take(); chunk != Chunk.END; chunk = chunks.take()) {
                    // a proxy that delays bytes waits on purpose, as the network it stands for would
                    for (long left = chunk.dueNanos() - System.nanoTime(); open && left > 0;
                            left = chunk.dueNanos() - System.nanoTime()) {
                        LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(5)));
                    }
                    try {
                        if (open) {
                            if (out == null) {
                                out = to.getOutputStream();
                            }
                            out.write(chunk.bytes());
                            out.flush();
                        }
                    }
                    catch (IOException ex) {
                        open = false;
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                    finally {
                        this.inFlight.decrementAndGet();
                    }
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            closeQuietly(from);
            closeQuietly(to);
        }).start();
    }

    private static Thread daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        }
        catch (Exception ex) {
            // nothing left to do
        }
    }

    private record Chunk(byte[] bytes, long dueNanos) {

        static final Chunk END = new Chunk(new byte[0], 0);

    }

}
