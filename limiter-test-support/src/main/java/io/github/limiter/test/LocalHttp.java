package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * A real HTTP client for an application under test on a local port.
 */
public final class LocalHttp {

    private final HttpClient http = HttpClient.newHttpClient();

    private final String base;

    /**
     * Creates a client for {@code http://localhost:<port>}.
     * @param port the application's port
     */
    public LocalHttp(int port) {
        this.base = "http://localhost:" + port;
    }

    /**
     * Sends a GET.
     * @param path the path and query
     * @return the response
     */
    public HttpResponse<String> get(String path) {
        return send("GET", path, Map.of(), null);
    }

    /**
     * Sends a request.
     * @param method the HTTP method
     * @param path the path and query
     * @param headers request headers
     * @param body the body, or {@code null} for none
     * @return the response
     */
    public HttpResponse<String> send(String method, String path, Map<String, String> headers, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
            .method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(body)
                    : HttpRequest.BodyPublishers.noBody());
        headers.forEach(request::header);
        try {
            return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

}
