package io.github.limiter.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real HTTP client for the sample app's API, as a browser or curl would use it.
 */
public final class SampleClient {

    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

    private final HttpClient http = HttpClient.newHttpClient();

    private final String base;

    public SampleClient(int port) {
        this.base = "http://localhost:" + port;
    }

    public HttpResponse<String> login(String username) {
        return send(HttpRequest.newBuilder(URI.create(this.base + "/api/login"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"" + username + "\",\"password\":\"password\"}"))
            .build());
    }

    public String token(String username) {
        HttpResponse<String> response = login(username);
        Matcher matcher = TOKEN.matcher(response.body());
        if (response.statusCode() != 200 || !matcher.find()) {
            throw new IllegalStateException("No token for " + username + ": " + response.statusCode() + " " + response.body());
        }
        return matcher.group(1);
    }

    public HttpResponse<String> get(String path, String token) {
        return send(authorized(path, token).GET().build());
    }

    public HttpResponse<String> delete(String path, String token) {
        return send(authorized(path, token).DELETE().build());
    }

    public int read(String token, long questionId) {
        return get("/questions/" + questionId + "/answer", token).statusCode();
    }

    public int alertsFor(String adminToken, String username) {
        String body = get("/admin/alerts", adminToken).body();
        return body.split(Pattern.quote("\"username\":\"" + username + "\""), -1).length - 1;
    }

    private HttpRequest.Builder authorized(String path, String token) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(this.base + path));
        return (token != null) ? builder.header("Authorization", "Bearer " + token) : builder;
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return this.http.send(request, HttpResponse.BodyHandlers.ofString());
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
