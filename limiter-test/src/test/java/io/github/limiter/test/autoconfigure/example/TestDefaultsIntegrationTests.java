package io.github.limiter.test.autoconfigure.example;

import java.time.Duration;

import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.test.autoconfigure.AutoConfigureLimiterRedis;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit's test defaults: a decision may take 2 s in a test, where an application's takes 100 ms,
 * so that a slow first decision on a loaded build machine does not let a call through uncounted;
 * any value the application or the test sets wins.
 */
@SpringBootTest(properties = "limiter.key-prefix=test-defaults:")
@AutoConfigureLimiterRedis
class TestDefaultsIntegrationTests {

    @Autowired
    LimiterProperties properties;

    @Test
    void aDecisionMayTakeTwoSecondsInATest() {
        assertThat(this.properties.getRedis().getTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Nested
    @TestPropertySource(properties = "limiter.redis.timeout=150ms")
    class WhereTheTestSetsTheTimeout {

        @Autowired
        LimiterProperties properties;

        @Test
        void itsValueWins() {
            assertThat(this.properties.getRedis().getTimeout()).isEqualTo(Duration.ofMillis(150));
        }

    }

}
