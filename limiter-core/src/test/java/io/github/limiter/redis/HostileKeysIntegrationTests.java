package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import io.github.limiter.Limit;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys come from request data: whatever they hold, each gets a counter of its own, all of a
 * decision's Redis keys share one Cluster slot, and Redis keys stay bounded.
 */
@WithRedis
class HostileKeysIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private final String prefix = "hostile-" + UUID.randomUUID() + ":";

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(redis, this.prefix, List.of());

    private final Limit limit = Limit.of(1, Duration.ofMinutes(5));

    @ParameterizedTest
    @ValueSource(strings = { "a}b", "{admin}", "}{", "a{b}c", "key with spaces", "ключ", "鍵", "emoji 🙂", "a:b:c",
            "%7B", "#abc", "100%", "tab\there", "line\nbreak", "\u0000", "   " })
    void everyHostileKeyGetsItsOwnCounterInOneSlot(String key) {
        assertThat(this.limiter.tryAcquire("k", key, this.limit).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire("k", key, this.limit).allowed()).isFalse();
        assertThat(this.limiter.tryAcquire("k", key + "x", this.limit).allowed()).as("a neighbour").isTrue();
        List<String> keys = RedisKeys.of(this.prefix, "k", key, false);
        assertThat(keys).allSatisfy(redisKey -> {
            assertThat(redisKey.chars().filter(c -> c == '{').count()).isEqualTo(1);
            assertThat(redisKey.chars().filter(c -> c == '}').count()).isEqualTo(1);
        });
        assertThat(keys.stream().map(ClusterSlotHashUtil::calculateSlot).distinct()).hasSize(1);
        assertThat(redis.hasKey(keys.get(0))).isTrue();
    }

    @Test
    void longKeysAreHashedNeverTruncatedIntoEachOther() {
        String common = "x".repeat(5000);
        String first = common + "1";
        String second = common + "2";
        assertThat(this.limiter.tryAcquire("long", first, this.limit).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire("long", second, this.limit).allowed()).as("a different key").isTrue();
        assertThat(this.limiter.tryAcquire("long", first, this.limit).allowed()).isFalse();
        String stored = RedisKeys.of(this.prefix, "long", first, false).get(0);
        assertThat(stored.length()).isLessThan(this.prefix.length() + 100);
        assertThat(redis.hasKey(stored)).isTrue();
    }

    @Test
    void aShortKeyCannotPassForTheHashOfALongOne() {
        String longKey = "y".repeat(300);
        String hashed = RedisKeys.safe(longKey);
        assertThat(hashed).startsWith("#");
        assertThat(this.limiter.tryAcquire("forge", longKey, this.limit).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire("forge", hashed, this.limit).allowed())
            .as("the literal hash is another key").isTrue();
    }

    @Test
    void keysThatAreNotValidUnicodeAreCountedApartFromEachOtherAndFromWhatUtf8MakesOfThem() {
        // from a JSON body: "sur\udc80" and "sur\udfff" are lone surrogates, which UTF-8 writes as '?'
        List<String> keys = List.of("sur\udc80", "sur\udfff", "sur?", "sur\ufffd", "sur%uDC80", "sur\ud800",
                "\udc80sur", "x".repeat(300) + "\udc80", "x".repeat(300) + "\udfff", "x".repeat(300) + "?");
        for (String key : keys) {
            assertThat(this.limiter.tryAcquire("lone", key, this.limit).allowed()).as("first call of %s", key).isTrue();
        }
        for (String key : keys) {
            assertThat(this.limiter.tryAcquire("lone", key, this.limit).allowed()).as("second call of %s", key)
                .isFalse();
        }
        Set<String> stored = new HashSet<>();
        keys.forEach(key -> stored.add(RedisKeys.state(this.prefix, "lone", key)));
        assertThat(stored).hasSize(keys.size());
        assertThat(stored).allSatisfy(redisKey -> assertThat(redis.hasKey(redisKey)).as(redisKey).isTrue());
        assertThat(redis.keys(this.prefix + "{lone:*")).hasSize(keys.size());
    }

    @Test
    void anUnbanOfOneLoneSurrogateLeavesTheOthersBanned() {
        Limit banning = Limit.of(1, Duration.ofMinutes(5)).withBanFor(Duration.ofMinutes(5));
        for (String key : List.of("ban\udc80", "ban\udfff", "ban?")) {
            this.limiter.tryAcquire("lone-ban", key, banning);
            this.limiter.tryAcquire("lone-ban", key, banning);
            assertThat(this.limiter.tryAcquire("lone-ban", key, banning).banned()).as("banned: %s", key).isTrue();
        }
        assertThat(this.limiter.unban("lone-ban", "ban\udc80")).isTrue();
        assertThat(this.limiter.tryAcquire("lone-ban", "ban\udc80", banning).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire("lone-ban", "ban\udfff", banning).banned()).isTrue();
        assertThat(this.limiter.tryAcquire("lone-ban", "ban?", banning).banned()).isTrue();
    }

    @Test
    void randomKeysOverAHostileAlphabetNeverShareACounter() {
        Random random = new Random(20261121);
        String alphabet = "{}%#: \t\nab1é鍵🙂?\ufffd";
        // and lone surrogates, which UTF-8 cannot carry
        int[] codePoints = IntStream.concat(alphabet.codePoints(), IntStream.of(0xD800, 0xDC80, 0xDFFF)).toArray();
        Set<String> seen = new HashSet<>();
        List<String> keys = new ArrayList<>();
        while (keys.size() < 300) {
            StringBuilder key = new StringBuilder();
            int length = 1 + random.nextInt((random.nextInt(10) == 0) ? 400 : 12);
            for (int i = 0; i < length; i++) {
                key.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
            }
            if (seen.add(key.toString())) {
                keys.add(key.toString());
            }
        }
        Set<String> redisKeys = new HashSet<>();
        for (String key : keys) {
            assertThat(this.limiter.tryAcquire("random", key, this.limit).allowed()).as("first call of %s", key).isTrue();
            List<String> stored = RedisKeys.of(this.prefix, "random", key, false);
            assertThat(stored.get(0).length()).isLessThanOrEqualTo(this.prefix.length() + "{random:}".length() + 4 * 200);
            assertThat(stored.stream().map(ClusterSlotHashUtil::calculateSlot).distinct()).hasSize(1);
            redisKeys.add(stored.get(0));
        }
        assertThat(redisKeys).hasSize(keys.size());
    }

}
