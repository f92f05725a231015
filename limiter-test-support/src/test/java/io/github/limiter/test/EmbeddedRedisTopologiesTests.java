package io.github.limiter.test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import javax.net.ssl.SSLHandshakeException;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class EmbeddedRedisTopologiesTests {

    private Set<Long> serversBefore;

    @BeforeEach
    void noteRunningServers() {
        this.serversBefore = redisServerChildren();
    }

    @AfterEach
    void leavesNoServerRunning() {
        // other test classes of this JVM may share a server until the JVM exits; ours must be gone
        assertThat(redisServerChildren()).isSubsetOf(this.serversBefore);
    }

    @Test
    void seesTheServersItStartsAsChildProcessesWhateverTheirExecutable() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            assertThat(redisServerChildren()).hasSize(this.serversBefore.size() + 1);
        }
    }

    @Test
    void generatesACaAndAServerCertificateItSignedForLoopback() {
        Path directory;
        try (TestCertificates certificates = TestCertificates.generate()) {
            directory = certificates.caCertificateFile().getParent();
            assertThat(certificates.caCertificate().getBasicConstraints()).isGreaterThanOrEqualTo(0);
            assertThat(certificates.caCertificateFile()).content().startsWith("-----BEGIN CERTIFICATE-----");
            assertThat(certificates.serverCertificateFile()).content().startsWith("-----BEGIN CERTIFICATE-----");
            assertThat(certificates.serverKeyFile()).content().startsWith("-----BEGIN PRIVATE KEY-----");
        }
        assertThat(directory).doesNotExist();
    }

    @Test
    void tlsServerAnswersOnlyOverTlsTrustingItsCa() {
        try (TestCertificates certificates = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates)) {
            String reply = redis.withCommands(RedisCommands::ping);
            // Redis 6.2 takes one pattern per CONFIG GET
            Map<String, String> ports = redis.withCommands(commands -> commands.configGet("*port"));
            assertThat(reply).isEqualTo("PONG");
            assertThat(ports).containsEntry("port", "0").containsEntry("tls-port", String.valueOf(redis.port()));
        }
    }

    @Test
    void tlsServerIsRefusedByAClientTrustingAnUnrelatedCa() {
        try (TestCertificates certificates = TestCertificates.generate();
                TestCertificates unrelated = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates)) {
            RedisEndpoint trustingTheWrongCa = RedisEndpoint.tls(redis.port(), unrelated.caCertificateFile());
            assertThatExceptionOfType(RedisConnectionException.class)
                .isThrownBy(() -> trustingTheWrongCa.withCommands(RedisCommands::ping))
                .withCauseInstanceOf(SSLHandshakeException.class);
        }
    }

    @Test
    void tlsServerServesASpringConnectionFactory() {
        try (TestCertificates certificates = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates)) {
            assertThat(roundTrip(redis.newConnectionFactory(), "over TLS")).isEqualTo("over TLS");
        }
    }

    @Test
    void socketServerAnswersOverItsSocketAndDeletesItOnClose() {
        Path socket;
        try (EmbeddedRedis redis = EmbeddedRedis.startOnSocket()) {
            socket = redis.socketPath();
            assertThat(socket).exists();
            String reply = redis.withCommands(RedisCommands::ping);
            Map<String, String> port = redis.withCommands(commands -> commands.configGet("port"));
            assertThat(reply).isEqualTo("PONG");
            assertThat(port).containsEntry("port", "0");
            assertThat(roundTrip(redis.newConnectionFactory(), "over a socket")).isEqualTo("over a socket");
            assertThatIllegalStateException().isThrownBy(redis::port);
        }
        assertThat(socket.getParent()).doesNotExist();
    }

    @Test
    void killedSocketServerStopsAnsweringAndLeavesNothingBehindOnClose() {
        Path socket;
        try (EmbeddedRedis redis = EmbeddedRedis.startOnSocket()) {
            socket = redis.socketPath();
            killAndExpectRefusal(redis);
            // SIGKILL gives Redis no chance to remove its socket
            assertThat(socket).exists();
        }
        assertThat(socket.getParent()).doesNotExist();
    }

    @Test
    void killedTlsServerStopsAnswering() {
        try (TestCertificates certificates = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates)) {
            killAndExpectRefusal(redis);
        }
    }

    @Test
    void replicaReceivesWhatIsWrittenOnItsMaster() {
        try (EmbeddedRedis master = EmbeddedRedis.start();
                EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
            replica.awaitMasterLinkUp();
            master.withCommands(commands -> commands.set("topologies:replicated", "yes"));
            Poll.until(() -> "yes".equals(replica.withCommands(commands -> commands.get("topologies:replicated"))),
                    "the key to reach the replica");
            String replication = replica.withCommands(commands -> commands.info("replication"));
            assertThat(replication).contains("role:slave", "master_port:" + master.port());
        }
    }

    @Test
    void replicaNeedsAPlainTcpMaster() {
        try (EmbeddedRedis master = EmbeddedRedis.startOnSocket()) {
            assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> EmbeddedRedis.startReplicaOf(master));
        }
    }

    @Test
    void sentinelsAndReplicasRunTheExecutableChosenForThisJvm() {
        String executable = "executable:" + RedisBinary.get().executable().getPath() + "\r\n";
        try (EmbeddedRedisSentinel sentinel = EmbeddedRedisSentinel.start(1)) {
            String sentinelInfo = sentinel.onSentinel(0, commands -> commands.info("server"));
            String replicaInfo = sentinel.onServer(1, commands -> commands.info("server"));
            // Valkey says server_mode where Redis says redis_mode
            assertThat(sentinelInfo).contains(executable).containsPattern("(redis|server)_mode:sentinel");
            assertThat(replicaInfo).contains(executable);
        }
    }

    @Test
    void startsRedis28WhateverTheExecutableOfTheOthers() {
        try (EmbeddedRedis old = EmbeddedRedis.startRedis28()) {
            String reply = old.withCommands(RedisCommands::ping);
            assertThat(reply).isEqualTo("PONG");
            assertThat(old.redisVersion()).isEqualTo("2.8.19");
        }
    }

    private static void killAndExpectRefusal(EmbeddedRedis redis) {
        redis.kill();
        assertThatExceptionOfType(RedisConnectionException.class)
            .isThrownBy(() -> redis.withCommands(RedisCommands::ping));
    }

    // Every process this JVM starts is a server or a sentinel. Not told apart by name: Valkey's is
    // valkey-server, and one started through its own C library's loader is ld-linux-x86-64.so.2.
    private static Set<Long> redisServerChildren() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private static String roundTrip(LettuceConnectionFactory factory, String value) {
        try {
            StringRedisTemplate template = new StringRedisTemplate(factory);
            template.opsForValue().set("topologies:factory", value);
            return Objects.requireNonNull(template.opsForValue().get("topologies:factory"));
        }
        finally {
            factory.destroy();
        }
    }

}
