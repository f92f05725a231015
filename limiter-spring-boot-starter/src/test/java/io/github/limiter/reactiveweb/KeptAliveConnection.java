package io.github.limiter.reactiveweb;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One kept-alive HTTP/1.1 connection, as a browser or a pooled client holds it: each request is
 * sent once the previous answer has been read whole, on the same socket, and each answer must
 * arrive within a bound. A request the server leaves unread shows as a {@link Stalled} failure
 * naming the request and how many were answered before it on the connection, instead of a client
 * waiting out its own timeout.
 */
final class KeptAliveConnection implements AutoCloseable {

    private final Socket socket;

    private final InputStream in;

    private final OutputStream out;

    private final String host;

    private final Duration bound;

    private int answered;

    KeptAliveConnection(int port, Duration bound) {
        this.bound = bound;
        try {
            this.socket = new Socket();
            this.socket.connect(new InetSocketAddress("127.0.0.1", port), (int) bound.toMillis());
            this.socket.setSoTimeout((int) bound.toMillis());
            this.socket.setTcpNoDelay(true);
            this.in = new BufferedInputStream(this.socket.getInputStream());
            this.out = this.socket.getOutputStream();
            this.host = "127.0.0.1:" + port;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not connect to port " + port, ex);
        }
    }

    /** How many requests this connection has had answered. */
    int answered() {
        return this.answered;
    }

    /** Sends a GET on this connection and reads its whole answer, or fails if none comes in time. */
    Response get(String path) {
        try {
            this.out.write(("GET " + path + " HTTP/1.1\r\nHost: " + this.host + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            this.out.flush();
            Response response = read();
            this.answered++;
            if ("close".equalsIgnoreCase(response.header("Connection").orElse(""))) {
                throw new IllegalStateException("GET " + path + " was answered with 'Connection: close' after "
                        + this.answered + " requests on the connection");
            }
            return response;
        }
        catch (SocketTimeoutException ex) {
            throw new Stalled("GET " + path + " unanswered after " + this.bound.toMillis() + " ms on a kept-alive connection that had answered " + this.answered + " requests before it");
        }
        catch (IOException ex) {
            throw new UncheckedIOException("GET " + path + " after " + this.answered + " answered requests", ex);
        }
    }

    private Response read() throws IOException {
        String status = line();
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("Not an HTTP/1.1 status line: '" + status + "'");
        }
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            headers.putIfAbsent(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
        }
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.get("Transfer-Encoding"))) {
            body = chunked();
        }
        else {
            body = this.in.readNBytes(Integer.parseInt(headers.getOrDefault("Content-Length", "0")));
        }
        return new Response(Integer.parseInt(parts[1]), new String(body, StandardCharsets.UTF_8), headers);
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = chunkSize(); size > 0; size = chunkSize()) {
            body.writeBytes(this.in.readNBytes(size));
            line();
        }
        // trailers, if any, up to the empty line
        for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
            // ignored
        }
        return body.toByteArray();
    }

    private int chunkSize() throws IOException {
        String line = line();
        int extension = line.indexOf(';');
        return Integer.parseInt((extension >= 0) ? line.substring(0, extension) : line, 16);
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = this.in.read(); c != '\n'; c = this.in.read()) {
            if (c == -1) {
                throw new IOException("Connection closed by the server after " + this.answered + " answered requests");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        try {
            this.socket.close();
        }
        catch (IOException ex) {
            // closing a client socket: nothing to do about it
        }
    }

    /** An answer: its status, body and headers. */
    record Response(int statusCode, String body, Map<String, String> headers) {

        Optional<String> header(String name) {
            return Optional.ofNullable(this.headers.get(name));
        }

    }

    /** A request the server did not answer in time on a kept-alive connection. */
    static final class Stalled extends RuntimeException {

        Stalled(String message) {
            super(message);
        }

    }

}
