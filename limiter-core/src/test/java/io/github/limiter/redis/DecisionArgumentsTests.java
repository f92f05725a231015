package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

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
    void encodesRandomNumbersAsTheirDecimalDigits() {
        for (int i = 0; i < 10_000; i++) {
            long value = ThreadLocalRandom.current().nextLong() >>> ThreadLocalRandom.current().nextInt(64);
            assertThat(new String(DecisionArguments.number(value), StandardCharsets.US_ASCII))
                .isEqualTo(Long.toString(value));
        }
    }

}
