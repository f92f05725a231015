package io.github.limiter.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The story of {@code demo.sh} against the jar the build made, started as in production but
 * AOT-processed ({@code java -Dspring.aot.enabled=true -jar}): the application context is the code
 * {@code spring-boot:process-aot} generated, which is also what a native image runs, rather than
 * configuration classes read at start-up. Its Redis is the demo's embedded one: AOT evaluated the
 * condition that starts it at build time, when no {@code spring.data.redis.*} was set, and a free
 * port is picked by default. Run by failsafe, after {@code package}.
 */
class SampleAppAotIntegrationTests {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final String REDIS_SERVER = "limiter.test.redis-server";

    private static final String METADATA = "META-INF/native-image/io.github.limiter/limiter-sample-app/"
            + "reachability-metadata.json";

    @Test
    void theStoryHoldsWhenTheJarRunsAotProcessed(@TempDir Path directory) throws Exception {
        Path log = directory.resolve("sample.log");
        int port = freePort();
        Process app = start(port, log);
        try {
            awaitHealthy(app, new SampleClient(port), log);
            String started = Files.readString(log);
            assertThat(started).contains("Starting AOT-processed SampleApplication");
            String redisServer = System.getProperty(REDIS_SERVER);
            if (redisServer != null) {
                assertThat(started).contains("Redis for tests: " + redisServer);
            }
            walkTheStory(new SampleClient(port));
        }
        catch (AssertionError ex) {
            ex.addSuppressed(new AssertionError("The app's log:\n" + Files.readString(log)));
            throw ex;
        }
        finally {
            stop(app);
        }
    }

    @Test
    void theJarCarriesTheNativeImageHintsOfTheLimiterAndOfTheApplication() throws IOException {
        DocumentContext metadata = JsonPath.parse(readFromJar(METADATA));
        assertThat(metadata.<List<String>>read("$.resources[*].glob"))
            .as("the limiter's scripts")
            .contains("META-INF/limiter/scripts/*.lua");
        assertThat(metadata.<List<String>>read(
                "$.reflection[?(@.type == 'io.github.limiter.sample.answers.AnswerController')].methods[*].name"))
            .as("the limited method, for the proxy to call")
            .contains("answer");
        assertThat(metadata.<List<Boolean>>read(
                "$.reflection[?(@.type == 'org.springframework.security.core.userdetails.UserDetails')].allPublicMethods"))
            .as("the declared type of the argument the key reads")
            .containsOnly(true);
        assertThat(metadata.<List<Boolean>>read(
                "$.reflection[?(@.type == 'org.springframework.security.core.userdetails.User')].allPublicMethods"))
            .as("the principal's class, which the application registers")
            .contains(true);
        assertThat(metadata.<List<Boolean>>read(
                "$.reflection[?(@.type == 'io.github.limiter.sample.answers.Plans')].allPublicMethods"))
            .as("the bean the policy expression calls, which the application registers")
            .contains(true);
        assertThat(metadata.<List<String>>read(
                "$.reflection[?(@.type == 'io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint$Report')].methods[*].name"))
            .as("the ratelimits endpoint's report, registered by Spring Boot")
            .contains("limits", "policies");
    }

    private static void walkTheStory(SampleClient client) {
        String admin = client.token("admin");
        String alice = client.token("alice");
        for (int read = 1; read <= 20; read++) {
            assertThat(client.read(alice, 1 + read % 3)).as("read %d", read).isEqualTo(200);
        }
        SampleClient.eventually(() -> client.alertsFor(admin, "alice"), (alerts) -> alerts == 1, "read 11's alert");

        HttpResponse<String> refused = client.get("/questions/2/answer", alice);
        assertThat(refused.statusCode()).as("read 21").isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("900");
        assertThat(refused.body()).contains("\"banned\":true");
        SampleClient.eventually(() -> client.bans(admin), (bans) -> bans.contains("\"username\":\"alice\""),
                "alice's ban in the admin API");
        assertThat(client.read(alice, 1)).as("alice's token, her session ended").isEqualTo(401);
        HttpResponse<String> login = client.login("alice");
        assertThat(login.statusCode()).as("alice's login while banned").isEqualTo(403);
        assertThat(login.body()).contains("alice is banned for reading too fast, until ");

        HttpResponse<String> limits = client.get("/actuator/ratelimits", admin);
        assertThat(limits.statusCode()).isEqualTo(200);
        assertThat(limits.body()).contains("\"limitId\":\"answers.free\"", "\"type\":\"ban\"");

        assertThat(client.delete("/admin/bans/alice", admin).statusCode()).as("the admin lifts the ban")
            .isEqualTo(204);
        assertThat(client.bans(admin)).isEqualTo("[]");
        String aliceAgain = client.token("alice");
        assertThat(client.read(aliceAgain, 1)).as("alice reads again").isEqualTo(200);

        String carol = client.token("carol");
        for (int read = 1; read <= 21; read++) {
            assertThat(client.read(carol, 1 + read % 3)).as("carol's read %d, on pro", read).isEqualTo(200);
        }
    }

    private static Process start(int port, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Dspring.aot.enabled=true");
        // the Redis executable chosen for this run (as CI's jobs do), as for every other test
        String redisServer = System.getProperty(REDIS_SERVER);
        if (redisServer != null) {
            command.add("-D" + REDIS_SERVER + "=" + redisServer);
        }
        command.addAll(List.of("-jar", jar().toString(), "--server.port=" + port, "--spring.main.banner-mode=off"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Polls the health endpoint until it answers 200, the app exits, or the start times out. */
    private static void awaitHealthy(Process app, SampleClient client, Path log) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!app.isAlive()) {
                throw new AssertionError("The app exited with " + app.exitValue() + " before it was healthy; its log:\n"
                        + Files.readString(log));
            }
            try {
                if (client.get("/actuator/health", null).statusCode() == 200) {
                    return;
                }
            }
            catch (RuntimeException ex) {
                // not listening yet
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("The app was not healthy after " + START_TIMEOUT.toSeconds() + " s; its log:\n"
                        + Files.readString(log));
            }
            LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
        }
    }

    /**
     * Stops the app as Ctrl-C would, which stops its embedded Redis with it; if it does not stop in
     * time, kills it and what it started.
     */
    private static void stop(Process app) throws InterruptedException {
        List<ProcessHandle> started = app.descendants().toList();
        app.destroy();
        if (!app.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static Path jar() {
        String jar = System.getProperty("sample.jar");
        assertThat(jar).as("the system property sample.jar, which failsafe sets").isNotNull();
        Path path = Path.of(jar);
        assertThat(path).as("the jar the build made").isRegularFile();
        return path;
    }

    private static String readFromJar(String name) throws IOException {
        try (JarFile jar = new JarFile(jar().toFile())) {
            ZipEntry entry = jar.getEntry(name);
            assertThat(entry).as(name).isNotNull();
            try (InputStream in = jar.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

}
