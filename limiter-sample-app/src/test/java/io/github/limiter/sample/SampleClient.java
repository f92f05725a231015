package io.github.limiter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.limiter.test.LocalHttp;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP client for the sample app's API, as a browser or curl would use it.
 */
public final class SampleClient {

    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

    private final LocalHttp http;

    public SampleClient(int port) {
        this.http = new LocalHttp(port);
    }

    public HttpResponse<String> login(String username) {
        return login(username, "password");
    }

    public HttpResponse<String> login(String username, String password) {
        return this.http.send("POST", "/api/login", Map.of("Content-Type", "application/json"),
                "{\"username\":\"" + username + "\",\"password\":\"" + password + "\"}");
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
        return this.http.send("GET", path, authorization(token), null);
    }

    public HttpResponse<String> delete(String path, String token) {
        return this.http.send("DELETE", path, authorization(token), null);
    }

    public HttpResponse<String> post(String path, String token) {
        return this.http.send("POST", path, authorization(token), null);
    }

    /** A POST with a JSON body, as {@code curl -H 'Content-Type: application/json' -d <json>} sends it. */
    public HttpResponse<String> post(String path, String token, String json) {
        Map<String, String> headers = new HashMap<>(authorization(token));
        headers.put("Content-Type", "application/json");
        return this.http.send("POST", path, headers, json);
    }

    public int read(String token, long questionId) {
        return get("/questions/" + questionId + "/answer", token).statusCode();
    }

    public int alertsFor(String adminToken, String username) {
        String body = get("/admin/alerts", adminToken).body();
        return body.split(Pattern.quote("\"username\":\"" + username + "\""), -1).length - 1;
    }

    /** The active bans the admin API lists, as its JSON body. */
    public String bans(String adminToken) {
        return get("/admin/bans", adminToken).body();
    }

    /**
     * Reads until the value satisfies {@code until}, for 10 seconds at most: the limiter records
     * alerts and bans for the admin views a moment after the call that raised them.
     */
    public static <T> T eventually(Supplier<T> read, Predicate<T> until, String what) {
        return eventually(read, until, what, Duration.ofSeconds(10));
    }

    /**
     * Reads until the value satisfies {@code until}, for {@code bound} at most.
     */
    public static <T> T eventually(Supplier<T> read, Predicate<T> until, String what, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        T value = read.get();
        while (!until.test(value)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Gave up after " + bound.toMillis() + " ms waiting for " + what
                        + "; last seen: " + value);
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            value = read.get();
        }
        return value;
    }

    private static Map<String, String> authorization(@Nullable String token) {
        return (token != null) ? Map.of("Authorization", "Bearer " + token) : Map.of();
    }

}
