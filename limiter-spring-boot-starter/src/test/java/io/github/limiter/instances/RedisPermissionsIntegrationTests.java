package io.github.limiter.instances;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;

import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static io.github.limiter.instances.Instance.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Redis users (ACLs) that lack what the limiter needs: a configuration error, not an outage. With
 * Redis up at start, the start fails with a message that names the user, what Redis refused and the
 * rules to grant; found later, after a start with Redis down, health is DOWN with that message, and
 * the log says it once. The rules the message gives are enough for everything the limiter does.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisPermissionsIntegrationTests {

    static final String USER = "crawler-app";

    static final String PASSWORD = "s3cret";

    private final String prefix = "acl-" + UUID.randomUUID() + ":";

    /** The rules docs/operations.md gives, for this test's key prefix. */
    private String documentedRules() {
        return "~" + this.prefix + "* &" + this.prefix + "* +@read +@write +@scripting +publish +subscribe +ping "
                + "+info +time";
    }

    /** A new user's channels: none but those granted (Redis 6.2 starts a user with every channel). */
    private static final String NO_CHANNELS = "resetchannels";

    @Test
    void aUserWithoutEvalshaFailsTheStartNamingTheUserTheCommandAndTheGrant() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            user(redis, "~" + this.prefix + "*", NO_CHANNELS, "&" + this.prefix + "*", "+@all", "-evalsha");
            assertThat(startFailure(redis.port()))
                .contains("The Redis user '" + USER + "' may not run EVALSHA")
                .contains("NOPERM")
                .contains("ACL SETUSER " + USER + " +evalsha;")
                .contains("everything the limiter needs is " + documentedRules());
        }
    }

    @Test
    void aUserWhoseKeysExcludeTheLimitersFailsTheStartNamingTheKeyPattern() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            user(redis, "~sessions:*", NO_CHANNELS, "&" + this.prefix + "*", "+@all");
            assertThat(startFailure(redis.port()))
                .contains("The Redis user '" + USER + "' may not use keys matching '" + this.prefix + "*'")
                .contains("ACL SETUSER " + USER + " ~" + this.prefix + "*;");
        }
    }

    @Test
    void aUserWithoutTheChannelFailsTheStartNamingTheChannel() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            user(redis, "~" + this.prefix + "*", "resetchannels", "+@all");
            assertThat(startFailure(redis.port()))
                .contains("The Redis user '" + USER + "' may not use the channel '" + this.prefix
                        + "local-refusals'")
                .contains("ACL SETUSER " + USER + " &" + this.prefix + "*;");
        }
    }

    @Test
    void theDocumentedRulesAreEnoughForEverythingTheLimiterDoes(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            user(redis, (NO_CHANNELS + " " + documentedRules()).split(" "));
            try (Instance a = start(redis.port()); Instance b = start(redis.port())) {
                await(Duration.ofSeconds(5), "both subscribed", () -> a.subscribed() && b.subscribed());
                for (int call = 0; call < 3; call++) {
                    assertThat(a.crawl("mallory")).isTrue();
                }
                assertThat(a.crawl("mallory")).as("the fourth call is refused and bans").isFalse();
                assertThat(b.crawl("mallory")).as("banned on the other instance too").isFalse();
                a.awaitRecentEventsWritten();
                assertThat(b.limiter().unban(Instance.CRAWL, "mallory")).isTrue();
                await(Duration.ofSeconds(1), "the unban reaches A", () -> a.crawl("mallory"));
                assertThat(health(a).getStatus()).isEqualTo(Status.UP);
            }
            assertThat(output.getOut()).doesNotContain("NOPERM").doesNotContain(" ERROR ");
        }
    }

    @Test
    void aUserWithoutEvalshaFoundAfterAStartWithRedisDownTurnsHealthDownWithTheMessage(CapturedOutput output) {
        int port = reservedPort();
        try (Instance instance = start(port)) {
            try (EmbeddedRedis redis = EmbeddedRedis.start(port)) {
                user(redis, "~" + this.prefix + "*", NO_CHANNELS, "&" + this.prefix + "*", "+@all", "-evalsha");
                await(Duration.ofSeconds(10), "the limiter connects and finds the user lacking",
                        () -> output.getOut().contains("may not run EVALSHA"));
                Health health = health(instance);
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(String.valueOf(health.getDetails().get("error")))
                    .contains("The Redis user '" + USER + "' may not run EVALSHA")
                    .contains("ACL SETUSER " + USER + " +evalsha;");
                for (int call = 0; call < 5; call++) {
                    assertThat(instance.crawl("mallory")).as("fails open, as configured").isTrue();
                }
                assertThat(health(instance).getStatus()).isEqualTo(Status.DOWN);
                assertThat(output.getOut().lines().filter(line -> line.contains("may not run EVALSHA")))
                    .as("said once").hasSize(1);

                // granted while the application runs: the next probe checks again
                user(redis, "+evalsha");
                await(Duration.ofSeconds(15), "health UP once the user may run EVALSHA",
                        () -> health(instance).getStatus() == Status.UP);
                for (int call = 0; call < 3; call++) {
                    assertThat(instance.crawl("trudy")).isTrue();
                }
                assertThat(instance.crawl("trudy")).as("limits hold again").isFalse();
            }
        }
    }

    @Test
    void aUserWithoutTheChannelFoundLaterIsSaidOnceAndTurnsHealthDown(CapturedOutput output) {
        int port = reservedPort();
        try (Instance instance = start(port)) {
            try (EmbeddedRedis redis = EmbeddedRedis.start(port)) {
                user(redis, "~" + this.prefix + "*", "resetchannels", "+@all");
                await(Duration.ofSeconds(10), "health DOWN naming the channel", () -> String
                    .valueOf(health(instance).getDetails().get("error"))
                    .contains("may not use the channel '" + this.prefix + "local-refusals'"));
                assertThat(health(instance).getStatus()).isEqualTo(Status.DOWN);
                // health may name the refusal a moment before the connection's ERROR line is written
                await(Duration.ofSeconds(2), "the connection's ERROR line",
                        () -> output.getOut().contains("but cannot use it"));
                int linesNow = (int) output.getOut().lines().count();
                // three seconds of retries: at the reconnect back-off's maximum of 1 s, no line each
                Supplier<Long> later = () -> output.getOut().lines().skip(linesNow).count();
                long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                await(Duration.ofSeconds(4), "three seconds", () -> System.nanoTime() - deadline > 0);
                assertThat(later.get()).as("log lines in 3 s of refused subscriptions").isLessThanOrEqualTo(1);
                assertThat(output.getOut()).doesNotContain("SubscriptionTask aborted");
            }
        }
    }

    /** The permission error a start fails with: the message the user reads. */
    private String startFailure(int port) {
        Throwable failure = catchThrowable(() -> start(port).close());
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IllegalStateException
                    && RedisRateLimiter.Failure.of(cause).misconfigured()) {
                return cause.getMessage();
            }
        }
        throw new AssertionError("The start did not fail with a permission error", failure);
    }

    private Instance start(int port) {
        return Instance.start(port, this.prefix, "spring.data.redis.username=" + USER,
                "spring.data.redis.password=" + PASSWORD);
    }

    private static Health health(Instance instance) {
        return instance.limiterHealth();
    }

    /** Creates or changes the test's Redis user, enabled, with its password and these rules. */
    static void user(EmbeddedRedis redis, String... rules) {
        redis.withCommands(commands -> {
            CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("SETUSER")
                .add(USER)
                .add("on")
                .add(">" + PASSWORD);
            for (String rule : rules) {
                args.add(rule);
            }
            return commands.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args);
        });
    }

    private static int reservedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
