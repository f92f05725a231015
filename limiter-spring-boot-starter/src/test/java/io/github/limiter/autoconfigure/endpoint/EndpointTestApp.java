package io.github.limiter.autoconfigure.endpoint;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with one limit that bans, {@code reads} (one read a minute, then a ban of ten
 * minutes), and the {@code ratelimits} endpoint exposed over HTTP; and a client that sends it what
 * its tests send. A request with an {@value #USER} header is that user's, as a servlet container's
 * own authentication (a realm) makes it: the principal Spring Boot's actuator reads on any Spring
 * Boot line, without Spring Security.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ EndpointTestApp.Reads.class, EndpointTestApp.ContainerAuthentication.class })
class EndpointTestApp {

    /** The header that names the request's user. */
    static final String USER = "X-Test-User";

    // the properties of every test of it, which adds the endpoint's access and its own; a sliding
    // log, so that no window's end falls between the two reads of a ban

    static final String EXPOSED = "management.endpoints.web.exposure.include=ratelimits";

    static final String POLICY = "limiter.policies.reads.algorithm=sliding-log";

    static final String MAX = "limiter.policies.reads.max=1";

    static final String WINDOW = "limiter.policies.reads.window=1m";

    static final String BAN = "limiter.policies.reads.ban-for=10m";

    /** A key of its own for each test. */
    static String user() {
        return "user-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @RestController
    static class Reads {

        @GetMapping("/endpoint-test/read")
        @RateLimit(name = "reads", policy = "reads", key = "#user")
        public String read(@RequestParam String user) {
            return "read";
        }

    }

    /** Makes the user that {@value #USER} names the request's principal. */
    static class ContainerAuthentication extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            String user = request.getHeader(USER);
            chain.doFilter((user != null) ? new HttpServletRequestWrapper(request) {

                @Override
                public Principal getUserPrincipal() {
                    return () -> user;
                }

            } : request, response);
        }

    }

    /** A client of the application, which sends the same headers (its credentials) with each request. */
    static final class Client {

        private final LocalHttp http;

        private final Map<String, String> headers;

        Client(int port) {
            this(port, Map.of());
        }

        Client(int port, Map<String, String> headers) {
            this.http = new LocalHttp(port);
            this.headers = headers;
        }

        /** Reads twice: the second read is refused and bans the user. */
        void ban(String user) {
            assertThat(read(user)).isEqualTo(200);
            assertThat(read(user)).as("the second read in a minute bans").isEqualTo(429);
        }

        /** Reads once, and answers the status. */
        int read(String user) {
            return send("GET", "/endpoint-test/read?user=" + user, null).statusCode();
        }

        HttpResponse<String> send(String method, String path, String json) {
            Map<String, String> headers = new HashMap<>(this.headers);
            if (json != null) {
                headers.put("Content-Type", "application/json");
            }
            return this.http.send(method, path, headers, json);
        }

    }

}
