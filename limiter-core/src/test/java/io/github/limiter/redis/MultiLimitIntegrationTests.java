package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A call under several limits: one round trip, all or nothing.
 */
@WithRedis
class MultiLimitIntegrationTests {

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(RedisServerExtension.template(),
            "multi-" + UUID.randomUUID() + ":", List.of());

    private final String key = "user-" + UUID.randomUUID();

    private final Limit perSecond = Limit.of(5, Duration.ofSeconds(30));

    private final Limit perHour = Limit.of(1000, Duration.ofHours(1)).withAlgorithm(Algorithm.SLIDING_LOG);

    @Test
    void passesOnlyIfEveryLimitAllowsAndARejectedCallIsCountedByNone() {
        for (int call = 1; call <= 5; call++) {
            assertThat(acquire().allowed()).isTrue();
        }
        Decision rejected = acquire();
        assertThat(rejected.allowed()).isFalse();
        assertThat(rejected.limitId()).isEqualTo("per-second");
        assertThat(rejected.key()).isEqualTo(this.key);
        assertThat(this.limiter.state("per-hour", this.key, this.perHour).count())
            .as("the rejected call took nothing from the hourly limit").isEqualTo(5);
        assertThat(this.limiter.state("per-second", this.key, this.perSecond).count()).isEqualTo(5);
    }

    @Test
    void anAllowedCallReportsTheLimitWithTheFewestCallsLeft() {
        Decision first = acquire();
        assertThat(first.limitId()).isEqualTo("per-second");
        assertThat(first.remaining()).isEqualTo(4);
    }

    @Test
    void aBanOnOneLimitRejectsWithoutCountingTheOthers() {
        Limit banning = Limit.of(1, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(5));
        List<LimitRequest> requests = List.of(LimitRequest.of("strict", this.key, banning),
                LimitRequest.of("per-hour", this.key, this.perHour));
        assertThat(this.limiter.tryAcquire(requests).allowed()).isTrue();
        Decision banning2 = this.limiter.tryAcquire(requests);
        assertThat(banning2.outcome()).isEqualTo(Outcome.BANNED);
        assertThat(banning2.banStarted()).isTrue();
        Decision banned = this.limiter.tryAcquire(requests);
        assertThat(banned.banned()).isTrue();
        assertThat(banned.limitId()).isEqualTo("strict");
        assertThat(this.limiter.state("per-hour", this.key, this.perHour).count()).isEqualTo(1);
    }

    @Test
    void needsAtLeastOneLimit() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.limiter.tryAcquire(List.of()))
            .withMessage("A call must be under at least one limit");
    }

    private Decision acquire() {
        return this.limiter.tryAcquire(List.of(LimitRequest.of("per-second", this.key, this.perSecond),
                LimitRequest.of("per-hour", this.key, this.perHour)));
    }

}
