package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionArgumentsTests {

    @ParameterizedTest
    @ValueSource(longs = { 0, 1, 9, 10, 99, 1023, 1024, 60_000, 100_000_000, 34_749_997, 86_400_000_000L,
            Long.MAX_VALUE, -1, -1024, Long.MIN_VALUE })
    void encodesNumbersAsTheirDecimalDigits(long value) {
        assertThat(new String(DecisionArguments.number(value), StandardCharsets.US_ASCII)).isEqualTo(Long.toString(value));
    }

    @Test
    void aTokenBucketWithoutABurstSendsTheArgumentsItSentBeforeBurstsWere() {
        Limit bucket = Limit.of(10, Duration.ofSeconds(1)).withAlgorithm(Algorithm.TOKEN_BUCKET);
        assertThat(arguments(bucket)).containsExactly("4", "10", "1000", "1", "0", "0", "0", "0", "0", "0");
        assertThat(arguments(bucket.withBurst(100))).containsExactly("4", "10", "1000", "1", "0", "0", "0", "100",
                "0", "0");
    }

    /** The arguments of one limit's acquire call, after the mode and the count of limits. */
    private static List<String> arguments(Limit limit) {
        byte[][] all = new DecisionArguments(DecisionScript.ACQUIRE, 1).add("{bucket:key}", limit, 1).keysAndArgs();
        return Arrays.stream(all, DecisionScript.KEYS_PER_LIMIT + DecisionScript.LEADING_ARGS, all.length)
            .map((bytes) -> new String(bytes, StandardCharsets.US_ASCII))
            .toList();
    }

    @Test
    void encodesRandomNumbersAsTheirDecimalDigits() {
        for (int i = 0; i < 10_000; i++) {
            long value = ThreadLocalRandom.current().nextLong() >>> ThreadLocalRandom.current().nextInt(64);
            assertThat(new String(DecisionArguments.number(value), StandardCharsets.US_ASCII))
                .isEqualTo(Long.toString(value));
        }
    }

}
