package io.github.limiter.autoconfigure.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.autoconfigure.LimiterRedisProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedisServerSettings} on a real Redis whose policy and persistence change while the limiter
 * runs ({@code CONFIG SET}), with intervals short or long enough for a test: each change of verdict
 * is logged once, the reading is shared by every caller within an interval, and evictions are
 * counted as Redis makes them.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisServerSettingsIntegrationTests {

    @Test
    void aPolicyChangedWhileTheLimiterRunsIsLoggedOncePerChange(CapturedOutput output) {
        withRedis("maxmemory 64mb", redis -> {
            RedisServerSettings evictions = settings(redis.template(), properties(false),
                    Duration.ZERO);
            evictions.check();
            assertThat(evictions.policy()).isEqualTo("noeviction");
            redis.server().withCommands(commands -> commands.configSet("maxmemory-policy", "volatile-lru"));
            for (int reading = 0; reading < 3; reading++) {
                assertThat(evictions.policy()).isEqualTo("volatile-lru");
            }
            assertThat(evictions.refusal()).as("only warned").isNull();
            redis.server().withCommands(commands -> commands.configSet("maxmemory-policy", "noeviction"));
            assertThat(evictions.policy()).isEqualTo("noeviction");
            assertThat(output.getOut().lines().filter(line -> line.contains("maxmemory-policy is"))).satisfiesExactly(
                    warning -> assertThat(warning).contains(" WARN ", "maxmemory-policy is volatile-lru"),
                    back -> assertThat(back).contains(" INFO ", "maxmemory-policy is now noeviction"));
            return null;
        });
    }

    @Test
    void aPolicyThatEvictsFoundAfterTheStartIsRefusedWhereNoEvictionIsRequired(CapturedOutput output) {
        withRedis("maxmemory 64mb", redis -> {
            RedisServerSettings evictions = settings(redis.template(), properties(true),
                    Duration.ZERO);
            evictions.check();
            assertThat(evictions.refusal()).isNull();
            redis.server().withCommands(commands -> commands.configSet("maxmemory-policy", "allkeys-lfu"));
            for (int reading = 0; reading < 3; reading++) {
                assertThat(evictions.refusal()).contains("maxmemory-policy is allkeys-lfu",
                        "limiter.redis.require-noeviction is set");
            }
            redis.server().withCommands(commands -> commands.configSet("maxmemory-policy", "noeviction"));
            assertThat(evictions.refusal()).as("health UP again").isNull();
            assertThat(output.getOut().lines().filter(line -> line.contains("maxmemory-policy is"))).satisfiesExactly(
                    error -> assertThat(error).contains(" ERROR ", "maxmemory-policy is allkeys-lfu"),
                    back -> assertThat(back).contains(" INFO ", "maxmemory-policy is now noeviction"));
            return null;
        });
    }

    @Test
    void aReadingThatFailsAsTheLimiterConnectsDoesNotFailTheStart(CapturedOutput output) {
        withRedis("maxmemory 64mb", redis -> {
            redis.server().withCommands(commands -> commands.configSet("maxmemory-policy", "allkeys-lru"));
            LimiterRedisProperties properties = properties(true);
            properties.setTimeout(Duration.ofMillis(100));
            RedisServerSettings evictions = settings(redis.template(), properties, Duration.ZERO);
            // connected: a connection opening during the pause would wait for its end
            redis.template().execute((RedisCallback<String>) RedisConnection::ping);
            // Redis answers nobody for 0.5 s, as a busy host may, just as the limiter connects
            redis.server().withCommands(commands -> commands.clientPause(500));
            evictions.check();
            assertThat(output.getOut()).contains("Rate limiting could not read Redis's maxmemory-policy and "
                    + "persistence as it connected (QueryTimeoutException");
            properties.setTimeout(Duration.ofSeconds(5));
            RedisServerSettings patient = settings(redis.template(), properties, Duration.ZERO);
            assertThat(patient.refusal()).as("the next reading decides").contains("maxmemory-policy is allkeys-lru");
            return null;
        });
    }

    @Test
    void oneReadingServesEveryCallerWithinTheInterval() {
        withRedis("maxmemory 0", redis -> {
            RedisServerSettings evictions = settings(redis.template(), properties(false),
                    Duration.ofHours(1));
            Map<String, Long> before = redis.server().commandCalls();
            for (int call = 0; call < 50; call++) {
                evictions.policy();
                evictions.refusal();
                evictions.evictedKeys();
            }
            Map<String, Long> after = redis.server().commandCalls();
            // one for the limiter, one for the test's own reading
            assertThat(after.get("info") - before.getOrDefault("info", 0L)).isEqualTo(2);
            assertThat(EmbeddedRedis.callsOf(after, "config") - EmbeddedRedis.callsOf(before, "config"))
                .as("CONFIG GET save")
                .isEqualTo(1);
            return null;
        });
    }

    @Test
    void evictionsAreCountedAsRedisMakesThem() {
        withRedis("maxmemory 2mb", redis -> {
            redis.server().withCommands(commands -> commands.configSet("maxmemory-policy", "allkeys-lru"));
            RedisServerSettings evictions = settings(redis.template(), properties(false),
                    Duration.ZERO);
            assertThat(evictions.evictedKeys()).isZero();
            String value = "x".repeat(1_000);
            redis.server().withCommands(commands -> {
                for (int from = 0; from < 4_000; from += 100) {
                    Map<String, String> batch = new LinkedHashMap<>();
                    for (int key = from; key < from + 100; key++) {
                        batch.put("flood:" + key, value);
                    }
                    commands.mset(batch);
                }
                return null;
            });
            long evicted = redis.server().evictedKeys();
            assertThat(evicted).isPositive();
            // any command may evict a few more while Redis stays at its limit
            assertThat(evictions.evictedKeys()).isBetween((double) evicted, (double) redis.server().evictedKeys());
            return null;
        });
    }

    @Test
    void persistenceChangedWhileTheLimiterRunsIsLoggedOncePerChange(CapturedOutput output, @TempDir Path directory) {
        // where Redis writes its append-only file once it is switched on
        withRedis("dir " + directory, redis -> {
            RedisServerSettings settings = settings(redis.template(), properties(false), Duration.ZERO);
            settings.check();
            assertThat(settings.persistence()).isEqualTo("none");
            redis.server().withCommands(commands -> commands.configSet("appendonly", "yes"));
            for (int reading = 0; reading < 3; reading++) {
                assertThat(settings.persistence()).isEqualTo("aof");
            }
            redis.server().withCommands(commands -> commands.configSet("save", "900 1"));
            assertThat(settings.persistence()).isEqualTo("aof+rdb");
            redis.server().withCommands(commands -> commands.configSet("appendonly", "no"));
            redis.server().withCommands(commands -> commands.configSet("save", ""));
            assertThat(settings.persistence()).isEqualTo("none");
            assertThat(output.getOut().lines().filter(line -> line.contains("data to disk"))).satisfiesExactly(
                    warning -> assertThat(warning).contains(" WARN ", "Redis writes none of its data to disk"),
                    aof -> assertThat(aof).contains(" INFO ", "Redis now writes its data to disk (aof)"),
                    both -> assertThat(both).contains(" INFO ", "Redis now writes its data to disk (aof+rdb)"),
                    again -> assertThat(again).contains(" WARN ", "Redis writes none of its data to disk"));
            return null;
        });
    }

    @Test
    void aRestartFoundByALaterReadingIsLoggedWithWhatItLost(CapturedOutput output) {
        EmbeddedRedis redis = EmbeddedRedis.startWith();
        int port = redis.port();
        // a factory of the test's own, which tells the reading of no reconnection: the reading of a
        // health probe or a meter finds the restart, as with Jedis
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        try {
            RedisServerSettings settings = settings(new StringRedisTemplate(factory), properties(false),
                    Duration.ZERO);
            settings.check();
            assertThat(settings.persistence()).isEqualTo("none");
            redis.close();
            redis = EmbeddedRedis.start(port);
            // the first readings may fail while the factory reconnects: a bounded poll, 10 s at most
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!output.getOut().contains("Redis restarted") && System.nanoTime() - deadline < 0) {
                settings.persistence();
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
            assertThat(output.getOut().lines().filter(line -> line.contains("Redis restarted"))).singleElement()
                .asString()
                .contains(" WARN ", "without persistence: the bans and counts from before the restart were lost");
            for (int reading = 0; reading < 3; reading++) {
                settings.persistence();
            }
            assertThat(output.getOut()).as("said once").containsOnlyOnce("Redis restarted");
        }
        finally {
            factory.destroy();
            redis.close();
        }
    }

    private static RedisServerSettings settings(StringRedisTemplate template, LimiterRedisProperties properties,
            Duration interval) {
        return new RedisServerSettings(template, properties.getTimeout(), properties.isRequireNoeviction(), interval);
    }

    private static LimiterRedisProperties properties(boolean requireNoEviction) {
        LimiterRedisProperties properties = new LimiterRedisProperties();
        properties.setRequireNoeviction(requireNoEviction);
        // a reading that timed out is not tried again within its interval: none may on a loaded machine
        properties.setTimeout(Duration.ofSeconds(5));
        return properties;
    }

    private static void withRedis(String setting, Function<Server, Void> test) {
        try (EmbeddedRedis redis = EmbeddedRedis.startWith(setting)) {
            LettuceConnectionFactory factory = redis.newConnectionFactory();
            try {
                test.apply(new Server(redis, new StringRedisTemplate(factory)));
            }
            finally {
                factory.destroy();
            }
        }
    }

    private record Server(EmbeddedRedis server, StringRedisTemplate template) {
    }

}
