package io.github.limiter.deployments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis the limiter cannot reach at start-up: the application starts, and the one line that says
 * so names where the limiter looked (host and port, socket, the master's name and its sentinels,
 * the nodes of a cluster or of a master/replica set-up) and why it failed (refused, unknown host,
 * authentication, TLS). So does every other line the limiter writes about it, at a limited call or a
 * health probe, and nothing else logs the same failure again.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisUnreachableAtStartIntegrationTests {

    @Test
    void namesTheHostAndPort(CapturedOutput output) {
        int port = freePort();
        try (LimitedApplication application = LimitedApplication.start("spring.data.redis.host=127.0.0.1",
                "spring.data.redis.port=" + port)) {
            assertNamedOnce(output, application, "Redis at 127.0.0.1:" + port, "Connection refused");
        }
    }

    @Test
    void namesTheSocket(CapturedOutput output, @TempDir Path directory) {
        Path socket = directory.resolve("nothing.sock");
        try (LimitedApplication application = LimitedApplication.start(
                List.of(RedisDeploymentsIntegrationTests.SocketServer.class), "test.redis.socket=" + socket)) {
            assertNamedOnce(output, application, "Redis on unix socket " + socket,
                    "(Unable to connect to " + socket + " (FileNotFoundException))");
        }
    }

    @Test
    void namesTheMasterAndItsSentinels(CapturedOutput output) {
        int first = freePort();
        int second = freePort();
        try (LimitedApplication application = LimitedApplication.start("spring.data.redis.sentinel.master=mymaster",
                "spring.data.redis.sentinel.nodes=127.0.0.1:" + first + ",127.0.0.1:" + second)) {
            assertNamedOnce(output, application, "Redis master 'mymaster' of sentinels ", "127.0.0.1:" + first,
                    "127.0.0.1:" + second, "Connection refused");
        }
    }

    @Test
    void namesTheClusterNodes(CapturedOutput output) {
        int first = freePort();
        int second = freePort();
        try (LimitedApplication application = LimitedApplication
            .start("spring.data.redis.cluster.nodes=127.0.0.1:" + first + ",127.0.0.1:" + second)) {
            assertNamedOnce(output, application, "Redis Cluster nodes ", "127.0.0.1:" + first, "127.0.0.1:" + second,
                    "Connection refused");
        }
    }

    @Test
    void namesTheMasterReplicaNodes(CapturedOutput output) {
        int first = freePort();
        int second = freePort();
        try (LimitedApplication application = LimitedApplication
            .start("spring.data.redis.masterreplica.nodes=127.0.0.1:" + first + ",127.0.0.1:" + second)) {
            // Lettuce logs each node's failure, and reports none
            assertNamedOnce(output, application,
                    "Redis master/replica nodes 127.0.0.1:" + first + ", 127.0.0.1:" + second,
                    "(Failed to connect to at least one node in ");
        }
    }

    @Test
    void namesAnUnknownHost(CapturedOutput output) {
        try (LimitedApplication application = LimitedApplication.start("spring.data.redis.host=no-such-host.invalid",
                "spring.data.redis.port=6379")) {
            assertNamedOnce(output, application, "Redis at no-such-host.invalid:6379", "unknown host: ");
        }
    }

    @Test
    void namesAFailedSignIn(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            redis.withCommands(commands -> commands.configSet("requirepass", "the-right-one"));
            try (LimitedApplication application = LimitedApplication.start("spring.data.redis.host=" + redis.host(),
                    "spring.data.redis.port=" + redis.port(), "spring.data.redis.password=a-wrong-one")) {
                assertNamedOnce(output, application, "Redis at 127.0.0.1:" + redis.port(), "WRONGPASS");
            }
        }
    }

    /** A server whose certificate the application's SSL bundle does not trust. */
    @Test
    void namesAFailedTlsHandshake(CapturedOutput output) {
        try (TestCertificates certificates = TestCertificates.generate();
                TestCertificates unrelated = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates);
                LimitedApplication application = LimitedApplication.start(
                        "spring.ssl.bundle.pem.redis.truststore.certificate=file:" + unrelated.caCertificateFile(),
                        "spring.data.redis.ssl.bundle=redis", "spring.data.redis.host=" + redis.host(),
                        "spring.data.redis.port=" + redis.port())) {
            assertNamedOnce(output, application, "Redis at 127.0.0.1:" + redis.port(),
                    "TLS: PKIX path building failed");
        }
    }

    /**
     * One WARN line at start-up names {@code servers} (and each of {@code more}) and the cause;
     * then a limited call and a health probe, which follow on-failure and report DOWN, write lines
     * that name the servers too, and no line says that the subscription to other instances failed
     * (it waits for the connection, which the start-up line already reports).
     */
    private static void assertNamedOnce(CapturedOutput output, LimitedApplication application, String servers,
            String... more) {
        application.call("alice");
        assertThat(application.limiterHealth()).isEqualTo(Status.DOWN);
        List<String> lines = output.getOut()
            .lines()
            .filter(line -> line.contains("Rate limiting") && (line.contains(" WARN ") || line.contains(" ERROR ")))
            .toList();
        List<String> atStart = lines.stream().filter(line -> line.contains("at start-up")).toList();
        assertThat(atStart).as("the start-up line").hasSize(1);
        assertThat(atStart.get(0)).contains("Rate limiting cannot reach " + servers).contains(more);
        assertThat(lines).as("the limiter's warnings").hasSizeGreaterThanOrEqualTo(3).allSatisfy(line -> {
            assertThat(line).contains(servers);
            for (String node : more) {
                if (Pattern.matches("[\\d.]+:\\d+", node)) {
                    assertThat(line).contains(node);
                }
            }
        });
        assertThat(lines).noneMatch(line -> line.contains("cannot subscribe"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
