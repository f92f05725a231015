package io.github.limiter.autoconfigure.metrics;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitMetricsTests {

    private final Limit limit = Limit.of(10, Duration.ofMinutes(1)).withAlertAt(5).withBanFor(Duration.ofMinutes(1));

    private final LimitRequest request = LimitRequest.of("answers", "alice", this.limit);

    @Test
    void countsDecisionsByLimitOutcomeAndModeAndTimesRedis() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RateLimitMetrics metrics = new RateLimitMetrics(registry);
        decide(metrics, decision(Outcome.ALLOWED, false, false, false));
        decide(metrics, decision(Outcome.ALLOWED, true, false, false));
        decide(metrics, decision(Outcome.BANNED, false, true, false));
        decide(metrics, decision(Outcome.REJECTED, false, false, true));
        metrics.onError(List.of(this.request), new IllegalStateException("down"), Duration.ofMillis(100));

        assertThat(registry.get("limiter.decisions").tag("limit", "answers").tag("outcome", "allowed")
            .tag("mode", "enforce").counter().count()).isEqualTo(2);
        assertThat(registry.get("limiter.decisions").tag("outcome", "banned").counter().count()).isEqualTo(1);
        assertThat(registry.get("limiter.decisions").tag("outcome", "rejected").tag("mode", "shadow").counter().count())
            .isEqualTo(1);
        assertThat(registry.get("limiter.decisions").tag("outcome", "error").counter().count()).isEqualTo(1);
        assertThat(registry.get("limiter.alerts").tag("limit", "answers").counter().count()).isEqualTo(1);
        assertThat(registry.get("limiter.bans").tag("limit", "answers").tag("mode", "enforce").counter().count())
            .isEqualTo(1);
        assertThat(registry.get("limiter.redis.latency").timer().count()).isEqualTo(5);
    }

    @Test
    void countsCallsALimitSkippedForABlankKey() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RateLimitMetrics metrics = new RateLimitMetrics(registry);
        metrics.onSkipped("answers", this.limit);
        metrics.onSkipped("answers", this.limit);
        metrics.onSkipped("exports", this.limit.withMode(Limit.Mode.SHADOW));
        assertThat(registry.get("limiter.skipped").tag("limit", "answers").tag("mode", "enforce").counter().count())
            .isEqualTo(2);
        assertThat(registry.get("limiter.skipped").tag("limit", "exports").tag("mode", "shadow").counter().count())
            .isEqualTo(1);
    }

    @Test
    void neverTagsAMeterWithTheKey() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RateLimitMetrics metrics = new RateLimitMetrics(registry);
        decide(metrics, decision(Outcome.ALLOWED, true, true, false));
        for (Meter meter : registry.getMeters()) {
            assertThat(meter.getId().getTags()).noneMatch(tag -> tag.getValue().equals("alice"))
                .allMatch(tag -> List.of("limit", "outcome", "mode").contains(tag.getKey()));
        }
    }

    @Test
    void showsInThePrometheusScrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RateLimitMetrics metrics = new RateLimitMetrics(registry);
        decide(metrics, decision(Outcome.ALLOWED, true, false, false));
        decide(metrics, decision(Outcome.REJECTED, false, false, false));
        String scrape = registry.scrape();
        assertThat(scrape).contains("limiter_decisions_total{limit=\"answers\",mode=\"enforce\",outcome=\"allowed\"} 1.0")
            .contains("limiter_decisions_total{limit=\"answers\",mode=\"enforce\",outcome=\"rejected\"} 1.0")
            .contains("limiter_alerts_total{limit=\"answers\",mode=\"enforce\"} 1.0")
            .contains("limiter_redis_latency_seconds_count 2");
    }

    @Test
    void countsALateDecisionsAlertAndBanButNotTheDecisionAgain() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RateLimitMetrics metrics = new RateLimitMetrics(registry);
        // the call timed out: an error; then Redis decided it, starting a ban
        metrics.onError(List.of(this.request), new IllegalStateException("timed out"), Duration.ofMillis(100));
        metrics.onLateDecision(List.of(this.request), List.of(decision(Outcome.REJECTED, true, true, false)));

        assertThat(registry.get("limiter.decisions").tag("outcome", "error").counter().count()).isEqualTo(1);
        assertThat(registry.find("limiter.decisions").tag("outcome", "rejected").counter()).isNull();
        assertThat(registry.get("limiter.decisions.late").tag("limit", "answers").tag("mode", "enforce").counter()
            .count()).isEqualTo(1);
        assertThat(registry.get("limiter.alerts").tag("limit", "answers").counter().count()).isEqualTo(1);
        assertThat(registry.get("limiter.bans").tag("limit", "answers").counter().count()).isEqualTo(1);
        assertThat(registry.get("limiter.redis.latency").timer().count()).as("only the failed call").isEqualTo(1);
        assertThat(registry.scrape()).contains("limiter_decisions_late_total{limit=\"answers\",mode=\"enforce\"} 1.0")
            .contains("limiter_decisions_total{limit=\"answers\",mode=\"enforce\",outcome=\"error\"} 1.0");
    }

    private void decide(RateLimitMetrics metrics, Decision decision) {
        metrics.onDecision(List.of(this.request), List.of(decision), decision, Duration.ofMillis(1));
    }

    private Decision decision(Outcome outcome, boolean alert, boolean ban, boolean shadow) {
        return new Decision("answers", "alice", outcome, 10, 5, 5, Duration.ZERO, Duration.ofSeconds(30), alert, ban,
                shadow, false);
    }

}
