package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitListener;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.internal.events.DecisionEvents;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatRuntimeException;

@WithRedis
class ShadowAndListenersIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "shadow-" + UUID.randomUUID() + ":";

    private final List<Object> seen = new CopyOnWriteArrayList<>();

    private final RateLimitListener recorder = new RateLimitListener() {

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            ShadowAndListenersIntegrationTests.this.seen.add(List.copyOf(decisions));
            ShadowAndListenersIntegrationTests.this.seen.add(latency);
        }

        @Override
        public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
            ShadowAndListenersIntegrationTests.this.seen.add(error);
        }

    };

    private final List<Object> events = new CopyOnWriteArrayList<>();

    @AutoClose
    private final RedisRateLimiter limiter = Limiters.of(redis, this.prefix,
            List.of(new DecisionEvents(this.events::add), this.recorder));

    @Test
    void aShadowLimitReportsWhatItWouldDoButLetsEveryCallThrough() {
        Limit shadow = Limit.of(2, Duration.ofMinutes(1)).withBanFor(Duration.ofMinutes(5)).withMode(Limit.Mode.SHADOW);
        List<Decision> decisions = new java.util.ArrayList<>();
        for (int call = 0; call < 5; call++) {
            decisions.add(this.limiter.tryAcquire("new-limit", "k", shadow));
        }
        assertThat(decisions).allMatch(Decision::allowed).allMatch(Decision::shadow);
        assertThat(decisions).extracting(Decision::outcome)
            .containsExactly(Outcome.ALLOWED, Outcome.ALLOWED, Outcome.BANNED, Outcome.BANNED, Outcome.BANNED);
        assertThat(decisions.get(2).banStarted()).isTrue();
        assertThat(this.events).as("a would-be ban publishes no ban event").noneMatch(RateLimitBanEvent.class::isInstance);
        assertThat(redis.hasKey(this.prefix + "{new-limit:k}:shadow-ban")).isTrue();
        assertThat(this.limiter.isBanned("new-limit", "k")).as("never a real ban").isFalse();
    }

    @Test
    void aShadowLimitNeverStopsTheEnforcedOnesFromCounting() {
        Limit enforced = Limit.of(10, Duration.ofMinutes(1));
        Limit shadow = Limit.of(1, Duration.ofMinutes(1)).withMode(Limit.Mode.SHADOW);
        List<LimitRequest> requests = List.of(LimitRequest.of("live", "k", enforced), LimitRequest.of("trial", "k", shadow));
        for (int call = 1; call <= 3; call++) {
            Decision decision = this.limiter.tryAcquire(requests);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.limitId()).as("the enforced limit binds").isEqualTo("live");
            assertThat(decision.count()).isEqualTo(call);
        }
        assertThat(this.limiter.state("trial", "k", shadow).count()).isEqualTo(1);
    }

    @Test
    void listenersHearEveryDecisionWithItsLatency() {
        Limit limit = Limit.of(1, Duration.ofMinutes(1));
        this.limiter.tryAcquire(List.of(LimitRequest.of("a", "k", limit), LimitRequest.of("b", "k", limit)));
        assertThat(this.seen).hasSize(2);
        assertThat((List<?>) this.seen.get(0)).hasSize(2);
        assertThat((Duration) this.seen.get(1)).isPositive().isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void listenersHearAFailureAndTheCallerGetsTheError() {
        LettuceConnectionFactory unreachable = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1));
        unreachable.afterPropertiesSet();
        unreachable.start();
        try {
            RedisRateLimiter failing = this.closing.add(
                    Limiters.of(new StringRedisTemplate(unreachable), this.prefix,
                    List.of(this.recorder)));
            assertThatRuntimeException().isThrownBy(() -> failing.tryAcquire("down", "k", Limit.of(1, Duration.ofMinutes(1))));
            assertThat(this.seen).singleElement().isInstanceOf(RuntimeException.class);
        }
        finally {
            unreachable.destroy();
        }
    }

    @Test
    void aFailingListenerDoesNotStopTheOthers() {
        RedisRateLimiter limiter = this.closing.add(
                Limiters.of(redis, this.prefix, List.of(new RateLimitListener() {

            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                throw new IllegalStateException("broken listener");
            }

        }, this.recorder)));
        assertThat(limiter.tryAcquire("robust", "k", Limit.of(1, Duration.ofMinutes(1))).allowed()).isTrue();
        assertThat(this.seen).hasSize(2);
    }

}
