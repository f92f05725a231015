package io.github.limiter.instances;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import io.github.limiter.Limit;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint;
import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;

import static io.github.limiter.instances.Instance.CRAWL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * While Redis is down, admin reads and writes fail fast with the Redis error, never a guess; the
 * endpoint still lists the limits and policies, and says why it has no recent events.
 */
class AdminDuringOutageIntegrationTests {

    private static final long TIMEOUT_PLUS_MARGIN_MS = 100 + 400;

    private static final List<Consumer<RateLimitAdmin>> ADMIN_OPERATIONS = List.of(
            limiter -> limiter.banTimeLeft(CRAWL, "alice"), limiter -> limiter.isBanned(CRAWL, "alice"),
            limiter -> limiter.state(CRAWL, "alice", Limit.of(3, Duration.ofMinutes(1))),
            limiter -> limiter.unban(CRAWL, "alice"), limiter -> limiter.reset(CRAWL, "alice"));

    @Test
    void adminOperationsFailFastWithTheRedisErrorBeforeTheFirstConnectionAndAfterALostOne() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        int port = redis.port();
        redis.close();
        String prefix = "admin-" + UUID.randomUUID() + ":";
        try (Instance instance = Instance.start(port, prefix,
                "management.endpoints.web.exposure.include=ratelimits")) {
            assertFailFast(instance.limiter());
            RateLimitsEndpoint.Report report = instance.bean(RateLimitsEndpoint.class).limits();
            assertThat(report.limits()).extracting(RateLimitsEndpoint.LimitEntry::limitId).contains(CRAWL);
            assertThat(report.recent()).isEmpty();
            assertThat(report.recentUnavailable()).startsWith("Redis cannot be read");

            try (EmbeddedRedis started = EmbeddedRedis.start(port)) {
                Instance.await(Duration.ofSeconds(5), "connected", () -> instance.health().getCode().equals("UP"));
                assertThat(instance.limiter().isBanned(CRAWL, "alice")).isFalse();
                assertThat(instance.bean(RateLimitsEndpoint.class).limits().recentUnavailable()).isNull();
            }
            assertFailFast(instance.limiter());
        }
    }

    private static void assertFailFast(RateLimitAdmin limiter) {
        for (Consumer<RateLimitAdmin> operation : ADMIN_OPERATIONS) {
            long start = System.nanoTime();
            assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> operation.accept(limiter));
            assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis()).as("ms to fail")
                .isLessThanOrEqualTo(TIMEOUT_PLUS_MARGIN_MS);
        }
    }

}
