package io.github.limiter.deployments;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import io.github.limiter.Limit;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.limiter.deployments.LimitedApplication.MAX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The limiter decides on the Redis the application reaches, however it reaches it: over a unix
 * socket, and on the master of a static master/replica set-up, given by property or by bean (both
 * Lettuce's only; over TLS, see {@link RedisTlsIntegrationTests}). A limiter on another
 * server, or on none, would let calls through uncounted ({@code limiter.redis.on-failure} allows by
 * default), so each test counts exactly and finds the count on the server it expects.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisDeploymentsIntegrationTests {

    static final String USER = "alice";

    static final Duration WITHIN = Duration.ofSeconds(10);

    @Test
    void decidesOverAUnixSocket() {
        try (EmbeddedRedis redis = EmbeddedRedis.startOnSocket();
                LimitedApplication application = LimitedApplication.start(List.of(SocketServer.class),
                        "test.redis.socket=" + redis.socketPath())) {
            assertDecidesExactlyOn(redis, application);
            assertTheApplicationsOwnTemplateWritesTo(redis, application);
        }
    }

    @Test
    void decidesOnTheMasterOfAStaticMasterReplicaSetUp() {
        assertDecidesOnTheMaster((master, replica) -> LimitedApplication.start(nodes(replica, master)));
    }

    /**
     * Reads from a replica change nothing for the limiter, whose script writes. With a read-from
     * setting Spring Data finds the master from any one node, so here only a limiter on a server
     * outside the set-up (Spring's default localhost:6379) would fail; the tests without one also
     * catch a limiter on the first node alone.
     */
    @Test
    void decidesOnTheMasterOfAStaticMasterReplicaSetUpThatReadsFromTheReplica() {
        assertDecidesOnTheMaster((master, replica) -> LimitedApplication.start(nodes(replica, master),
                "spring.data.redis.lettuce.read-from=replica-preferred"));
    }

    @Test
    void decidesOnTheMasterOfAStaticMasterReplicaConfigurationBean() {
        assertDecidesOnTheMaster((master, replica) -> LimitedApplication.start(List.of(MasterReplicaServers.class),
                "test.redis.host=" + master.host(), "test.redis.replica-port=" + replica.port(),
                "test.redis.master-port=" + master.port()));
    }

    /**
     * The application built its factory over static master/replica nodes it declared nowhere else:
     * the factory does not tell them (it reads as Spring Data's default server, localhost:6379), so
     * the limiter decides through the application's factory, on the master, and connects to no
     * other server. Spring Data has no Pub/Sub over such a factory, so this instance does not hear
     * unbans from others, and says so.
     */
    @Test
    void decidesOnTheMasterOfAStaticMasterReplicaFactoryTheApplicationBuilt(CapturedOutput output) {
        try (EmbeddedRedis master = EmbeddedRedis.start();
                EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
            replica.awaitMasterLinkUp();
            try (LimitedApplication application = LimitedApplication.start(List.of(MasterReplicaFactory.class),
                    "test.redis.host=" + master.host(), "test.redis.replica-port=" + replica.port(),
                    "test.redis.master-port=" + master.port())) {
                await("the limiter's health to be UP").atMost(WITHIN)
                    .until(() -> Status.UP.equals(application.limiterHealth()));
                for (int call = 0; call < MAX; call++) {
                    application.call(USER);
                }
                assertThatExceptionOfType(RateLimitExceededException.class)
                    .describedAs("call %d of %d allowed", MAX + 1, MAX)
                    .isThrownBy(() -> application.call(USER))
                    .matches(refusal -> !refusal.isFailure(), "refused by the count, not because Redis could not decide");
                assertThat(holdsTheCount(master, application)).as("the limiter's count on the master").isTrue();
                assertTheApplicationsOwnTemplateWritesTo(master, application);
                assertThat(output.getOut()).contains("Rate limiting shares the application's LettuceConnectionFactory")
                    .doesNotContain("localhost:6379");
            }
        }
    }

    /** Spring Boot's way to TLS: a PEM bundle that trusts {@code trusted}'s CA, named by the Redis properties. */
    @Test
    void anUnbanReachesEveryInstanceOfAStaticMasterReplicaSetUp() {
        Limit banning = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(15));
        String prefix = "limiter.key-prefix=deployments-" + UUID.randomUUID() + ":";
        try (EmbeddedRedis master = EmbeddedRedis.start();
                EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
            replica.awaitMasterLinkUp();
            try (LimitedApplication a = LimitedApplication.start(nodes(replica, master), prefix);
                    LimitedApplication b = LimitedApplication.start(nodes(replica, master), prefix)) {
                await("both to hear unbans").atMost(WITHIN).until(() -> a.subscribed() && b.subscribed());
                a.limiter().tryAcquire("banning", USER, banning);
                assertThat(a.limiter().tryAcquire("banning", USER, banning).banned()).isTrue();
                // b learns of the ban from Redis, then refuses from memory until told otherwise
                assertThat(b.limiter().tryAcquire("banning", USER, banning).banned()).isTrue();
                long scripts = master.commandCalls().getOrDefault("evalsha", 0L);
                assertThat(b.limiter().tryAcquire("banning", USER, banning).banned()).isTrue();
                assertThat(master.commandCalls().getOrDefault("evalsha", 0L)).as("refused from memory")
                    .isEqualTo(scripts);
                assertThat(a.limiter().unban("banning", USER)).isTrue();
                await("the unban on one instance to reach the other").atMost(Duration.ofSeconds(1))
                    .until(() -> b.limiter().tryAcquire("banning", USER, banning).allowed());
            }
        }
    }

    /** Spring Boot's static master/replica property, the replica first. */
    private static String nodes(EmbeddedRedis replica, EmbeddedRedis master) {
        return "spring.data.redis.masterreplica.nodes=" + replica.host() + ":" + replica.port() + "," + master.host()
                + ":" + master.port();
    }

    /**
     * The replica is the first node, so a limiter that took the first node for a standalone server
     * would run its script there and fail (READONLY), as one on Spring's default localhost:6379
     * would fail to connect: either lets every call through.
     */
    private static void assertDecidesOnTheMaster(
            BiFunction<EmbeddedRedis, EmbeddedRedis, LimitedApplication> start) {
        try (EmbeddedRedis master = EmbeddedRedis.start();
                EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
            replica.awaitMasterLinkUp();
            try (LimitedApplication application = start.apply(master, replica)) {
                assertDecidesExactlyOn(master, application);
                await("the count to reach the replica").atMost(WITHIN)
                    .until(() -> holdsTheCount(replica, application));
                assertTheApplicationsOwnTemplateWritesTo(master, application);
            }
        }
    }

    /**
     * {@link LimitedApplication#MAX} calls pass, the next is refused by the count, and the count is
     * on {@code server}.
     */
    static void assertDecidesExactlyOn(EmbeddedRedis server, LimitedApplication application) {
        // a limiter with no Redis it can reach would stay DOWN, and let every call through
        await("the limiter's health to be UP").atMost(WITHIN)
            .until(() -> Status.UP.equals(application.limiterHealth()));
        for (int call = 0; call < MAX; call++) {
            application.call(USER);
        }
        assertThatExceptionOfType(RateLimitExceededException.class).describedAs("call %d of %d allowed", MAX + 1, MAX)
            .isThrownBy(() -> application.call(USER))
            .matches(refusal -> !refusal.isFailure(), "refused by the count, not because Redis could not decide");
        assertThat(holdsTheCount(server, application)).as("the limiter's count on the application's server").isTrue();
        await("the limiter to hear unbans and resets from other instances").atMost(WITHIN)
            .until(application::subscribed);
    }

    private static boolean holdsTheCount(EmbeddedRedis server, LimitedApplication application) {
        return server.withCommands(commands -> commands.exists(application.countKey(USER))) == 1;
    }

    static void assertTheApplicationsOwnTemplateWritesTo(EmbeddedRedis server, LimitedApplication application) {
        application.applicationTemplate().opsForValue().set("application", "written");
        String written = server.withCommands(commands -> commands.get("application"));
        assertThat(written).as("the application's own write").isEqualTo("written");
    }

    /** The application's own factory on a unix socket, for which Spring Boot has no property. */
    @Configuration(proxyBeanMethods = false)
    static class SocketServer {

        @Bean
        LettuceConnectionFactory redisConnectionFactory(@Value("${test.redis.socket}") String socket) {
            // TCP keep-alive means nothing on a unix socket, where epoll warns about each of its options
            ClientOptions options = ClientOptions.builder()
                .socketOptions(SocketOptions.builder().keepAlive(false).build())
                .build();
            return new LettuceConnectionFactory(new RedisSocketConfiguration(socket),
                    LettuceClientConfiguration.builder().clientOptions(options).build());
        }

    }

    /**
     * The application's own factory over static master/replica nodes, the replica first, as in
     * {@link #nodes}; the nodes are no bean of their own.
     */
    @Configuration(proxyBeanMethods = false)
    static class MasterReplicaFactory {

        @Bean
        LettuceConnectionFactory redisConnectionFactory(@Value("${test.redis.host}") String host,
                @Value("${test.redis.replica-port}") int replicaPort,
                @Value("${test.redis.master-port}") int masterPort) {
            RedisStaticMasterReplicaConfiguration nodes = new RedisStaticMasterReplicaConfiguration(host, replicaPort);
            nodes.addNode(host, masterPort);
            return new LettuceConnectionFactory(nodes, LettuceClientConfiguration.defaultConfiguration());
        }

    }

    /**
     * The application's servers as a bean, which Spring Boot builds its factory from instead of
     * properties; the replica first, as in {@link #nodes}.
     */
    @Configuration(proxyBeanMethods = false)
    static class MasterReplicaServers {

        @Bean
        RedisStaticMasterReplicaConfiguration masterReplicaConfiguration(
                @Value("${test.redis.host}") String host, @Value("${test.redis.replica-port}") int replicaPort,
                @Value("${test.redis.master-port}") int masterPort) {
            RedisStaticMasterReplicaConfiguration nodes = new RedisStaticMasterReplicaConfiguration(host, replicaPort);
            nodes.addNode(host, masterPort);
            return nodes;
        }

    }

}
