package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Limit;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.internal.events.RecentEvents;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
class RecentEventsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private final String prefix = "recent-" + UUID.randomUUID() + ":";

    private final RecentEvents recent = new RecentEvents(redis, LimiterScripts.recordEvent(),
            (limitId) -> RedisLayout.events(this.prefix, limitId),
            new SimpleAsyncTaskExecutor("recent-events-"));

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(redis, this.prefix, List.of(this.recent));

    @Test
    void recordsAlertsAndBansNewestFirstWithTheirInstance() {
        Limit limit = Limit.of(2, Duration.ofMinutes(1)).withAlertAt(1).withBanFor(Duration.ofMinutes(5));
        for (int call = 0; call < 5; call++) {
            this.limiter.tryAcquire("reads", "mallory", limit);
        }
        assertThat(this.recent.awaitWritten(Duration.ofSeconds(5))).isTrue();
        List<RecentEvent> events = this.recent.recent("reads");
        assertThat(events).extracting(RecentEvent::type).containsExactly("ban", "alert");
        assertThat(events).allSatisfy(event -> {
            assertThat(event.key()).isEqualTo("mallory");
            assertThat(event.instance()).contains("@");
            assertThat(event.shadow()).isFalse();
        });
        assertThat(redis.getExpire(this.prefix + "events:{reads}", TimeUnit.DAYS)).isBetween(6L, 7L);
    }

    @Test
    void keepsOnlyTheLatestHundredAndNothingForOrdinaryCalls() {
        Limit limit = Limit.of(5, Duration.ofMinutes(1)).withAlertAt(1);
        for (int i = 0; i < 105; i++) {
            this.limiter.tryAcquire("busy", "user-" + i, limit);
            this.limiter.tryAcquire("busy", "user-" + i, limit);
        }
        assertThat(this.recent.awaitWritten(Duration.ofSeconds(5))).isTrue();
        List<RecentEvent> events = this.recent.recent("busy");
        assertThat(events).hasSize(RecentEvents.CAPACITY);
        assertThat(events.get(0).key()).isEqualTo("user-104");
        this.limiter.tryAcquire("quiet", "k", Limit.of(5, Duration.ofMinutes(1)));
        assertThat(this.recent.awaitWritten(Duration.ofSeconds(5))).isTrue();
        assertThat(redis.hasKey(this.prefix + "events:{quiet}")).isFalse();
    }

    @Test
    void recordsTheLayoutsVersionAndSkipsRecordsOfAnother() {
        Limit limit = Limit.of(5, Duration.ofMinutes(1)).withAlertAt(1);
        this.limiter.tryAcquire("versioned", "k", limit);
        this.limiter.tryAcquire("versioned", "k", limit);
        assertThat(this.recent.awaitWritten(Duration.ofSeconds(5))).isTrue();
        String key = this.prefix + "events:{versioned}";
        assertThat(redis.opsForList().index(key, 0)).startsWith(RecentEvents.RECORD_VERSION + "\u001falert\u001f");
        // a record without the version (seven fields) and one of a later layout, beside it
        redis.opsForList().leftPush(key, "alert\u001f2026-11-26T00:00:00Z\u001fversioned\u001fold\u001f2\u001ffalse\u001fp@h");
        redis.opsForList().leftPush(key,
                "2\u001falert\u001f2026-11-26T00:00:00Z\u001fversioned\u001fnew\u001f2\u001ffalse\u001fp@h\u001fmore");
        assertThat(this.recent.recent("versioned")).singleElement()
            .satisfies(event -> assertThat(event.key()).isEqualTo("k"));
    }

    @Test
    void keepsHostileKeysWhole() {
        Limit limit = Limit.of(5, Duration.ofMinutes(1)).withAlertAt(1);
        List<String> hostile = List.of("a\u001fb{c}:d", "back\\slash\\u001F", "sur\udc80", "sur\udfff", "sur?",
                "line\r\nbreak", "\u001b[2J");
        for (String key : hostile) {
            this.limiter.tryAcquire("odd", key, limit);
            this.limiter.tryAcquire("odd", key, limit);
        }
        assertThat(this.recent.awaitWritten(Duration.ofSeconds(5))).isTrue();
        List<String> newestFirst = new ArrayList<>(hostile);
        Collections.reverse(newestFirst);
        // an admin lifts a ban by the key a record gives: it must be the key, not a look-alike
        assertThat(this.recent.recent("odd")).extracting(RecentEvent::key)
            .containsExactlyElementsOf(newestFirst);
    }

    @Test
    void boundsTheRecordsOfHugeKeysSoTheListStaysSmall() {
        Limit limit = Limit.of(2, Duration.ofMinutes(1)).withAlertAt(1).withBanFor(Duration.ofMinutes(1));
        for (int i = 0; i < 60; i++) {
            String megabyte = String.format("%02d", i).repeat(1_048_576 / 2);
            for (int call = 0; call < 3; call++) {
                this.limiter.tryAcquire("huge", megabyte, limit);
            }
        }
        assertThat(this.recent.awaitWritten(Duration.ofSeconds(20))).isTrue();
        String list = this.prefix + "events:{huge}";
        assertThat(redis.opsForList().size(list)).isEqualTo(RecentEvents.CAPACITY);
        long bytes = redis.opsForList().range(list, 0, -1).stream()
            .mapToLong(record -> record.getBytes(StandardCharsets.UTF_8).length).sum();
        assertThat(bytes).as("the list of 100 records of 1 MB keys, in bytes").isLessThan(25_000L);
        List<RecentEvent> events = this.recent.recent("huge");
        assertThat(events).hasSize(RecentEvents.CAPACITY).allSatisfy(event -> assertThat(event.key())
            .hasSizeLessThan(150).contains("...(1048576 chars, sha256 "));
        assertThat(events.get(0).key()).startsWith("59".repeat(32));
    }

    @Test
    void aLimiterBuiltToKeepThemListsThemAsItsAdmin() {
        try (RedisRateLimiter built = RedisRateLimiter.builder(redis)
            .keyPrefix(this.prefix)
            .recentEvents(new SimpleAsyncTaskExecutor("built-recent-events-"))
            .build(); RedisRateLimiter without = RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build()) {
            Limit limit = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(5));
            built.tryAcquire("built", "eve", limit);
            io.github.limiter.Decision banned = built.tryAcquire("built", "eve", limit);
            assertThat(banned.banStarted()).isTrue();
            assertThat(built.awaitRecentEventsWritten(Duration.ofSeconds(5))).isTrue();
            RateLimitAdmin admin = built;
            assertThat(admin.recentEvents("built")).singleElement().satisfies(event -> {
                assertThat(event.type()).isEqualTo("ban");
                assertThat(event.limitId()).isEqualTo("built");
                assertThat(event.key()).isEqualTo("eve");
                assertThat(event.count()).isEqualTo(banned.count());
            });
            // what another instance, without its own recorder, reads from the same Redis: nothing,
            // since it keeps none; the default admin keeps none either
            assertThat(without.recentEvents("built")).isEmpty();
            assertThat(without.awaitRecentEventsWritten(Duration.ZERO)).isTrue();
            assertThat(new RateLimitAdmin() {

                @Override
                public io.github.limiter.LimitState state(String limitId, String key, Limit limit) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Duration banTimeLeft(String limitId, String key) {
                    return Duration.ZERO;
                }

                @Override
                public boolean unban(String limitId, String key) {
                    return false;
                }

                @Override
                public void reset(String limitId, String key) {
                }

            }.recentEvents("built")).isEmpty();
        }
    }

}
