package io.github.limiter.redis;

import java.time.Duration;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
class KeyNormalizationIntegrationTests {

    // "José" with é as one code point, and as e followed by a combining acute accent
    private static final String COMPOSED = "Jos\u00e9";

    private static final String DECOMPOSED = "Jose\u0301";

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "nfc-" + UUID.randomUUID() + ":";

    // a sliding log: no window ends between a test's calls
    private final Limit twoAMinute = Limit.of(2, Duration.ofMinutes(1))
        .withAlgorithm(Algorithm.SLIDING_LOG)
        .withBanFor(Duration.ofMinutes(5));

    @Test
    void bothSpellingsShareOneCountAndOneBan() {
        assertThat(COMPOSED).isNotEqualTo(DECOMPOSED);
        RedisRateLimiter limiter = limiter(true);
        assertThat(limiter.tryAcquire("users", COMPOSED, this.twoAMinute).allowed()).isTrue();
        Decision second = limiter.tryAcquire("users", DECOMPOSED, this.twoAMinute);
        assertThat(second.allowed()).isTrue();
        assertThat(second.count()).as("the second spelling counts as the same key").isEqualTo(2);
        assertThat(second.key()).as("the decision keeps the key as the call spelled it").isEqualTo(DECOMPOSED);
        assertThat(limiter.tryAcquire("users", COMPOSED, this.twoAMinute).banned()).isTrue();
        assertThat(limiter.isBanned("users", DECOMPOSED)).isTrue();
        assertThat(limiter.state("users", DECOMPOSED, this.twoAMinute).count()).isEqualTo(2);
        assertThat(limiter.unban("users", DECOMPOSED)).as("unbanned by the other spelling").isTrue();
        assertThat(limiter.tryAcquire("users", COMPOSED, this.twoAMinute).allowed()).isTrue();
        assertThat(redis.keys(this.prefix + "*")).as("one key's state in Redis")
            .containsOnly(this.prefix + "{users:" + COMPOSED + "}");
    }

    @Test
    void aKeyRefusedFromMemoryIsRefusedInEitherSpelling() {
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(redis)
            .keyPrefix(this.prefix)
            .localCache(100, Duration.ofMinutes(1))
            .build());
        for (int call = 0; call < 3; call++) {
            limiter.tryAcquire("remembered", COMPOSED, this.twoAMinute);
        }
        assertThat(limiter.localRefusals.size()).isEqualTo(1);
        assertThat(limiter.tryAcquire("remembered", DECOMPOSED, this.twoAMinute).banned()).isTrue();
        assertThat(limiter.localRefusals.size()).as("one remembered key for both spellings").isEqualTo(1);
    }

    @Test
    void switchedOffEachSpellingCountsOnItsOwn() {
        RedisRateLimiter limiter = limiter(false);
        limiter.tryAcquire("raw", COMPOSED, this.twoAMinute);
        limiter.tryAcquire("raw", COMPOSED, this.twoAMinute);
        assertThat(limiter.tryAcquire("raw", DECOMPOSED, this.twoAMinute).count()).isEqualTo(1);
    }

    @Test
    void keysBelowTheFirstCombiningMarkAreTakenAsTheyAre() {
        String ascii = "user-42@example.org";
        assertThat(RedisKeys.nfc(ascii)).isSameAs(ascii);
        String latin1 = "Gr\u00fc\u00dfe";
        assertThat(RedisKeys.nfc(latin1)).isSameAs(latin1);
        assertThat(RedisKeys.nfc(DECOMPOSED)).isEqualTo(COMPOSED);
        // Hangul jamo compose too: U+1100 U+1161 is U+AC00
        assertThat(RedisKeys.nfc("\u1100\u1161")).isEqualTo("\uac00");
        String composedAbove = "\u4e2d\u6587";
        assertThat(RedisKeys.nfc(composedAbove)).isSameAs(composedAbove);
    }

    private RedisRateLimiter limiter(boolean normalizeKeys) {
        return this.closing.add(
                RedisRateLimiter.builder(redis).keyPrefix(this.prefix).normalizeKeys(normalizeKeys).build());
    }

}
