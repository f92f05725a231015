package io.github.limiter.autoconfigure.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.internal.transport.FailureKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Counts decisions, alerts and bans per limit and times the Redis round trip. Tags are the limit id,
 * the outcome and the mode only: never the key, which would give a meter per user.
 *
 * <ul>
 * <li>{@code limiter.decisions} (limit, outcome = allowed | rejected | banned | error, mode = enforce |
 * shadow)</li>
 * <li>{@code limiter.alerts} (limit, mode)</li>
 * <li>{@code limiter.bans} (limit, mode)</li>
 * <li>{@code limiter.errors} (limit, kind = connection | timeout | oom | noperm | readonly | ...): the
 * decisions Redis could not make, by why ({@link io.github.limiter.redis.RedisRateLimiter.Failure#kind()})</li>
 * <li>{@code limiter.redis.latency}: the decision script's round trip</li>
 * <li>{@code limiter.decisions.late} (limit, mode): decisions Redis made after their call had timed
 * out (each already counted as an {@code error}); their alerts and bans count in
 * {@code limiter.alerts} and {@code limiter.bans} like any other</li>
 * <li>{@code limiter.decisions.local} (limit, outcome, mode): decisions an instance made in its own
 * memory while Redis could not decide (on-failure {@code local}; each call already counted as an
 * {@code error}); their alerts and bans count in {@code limiter.alerts} and {@code limiter.bans}</li>
 * </ul>
 */
class RateLimitMetrics implements RateLimitListener {

    private static final String ERROR = "error";

    private final MeterRegistry registry;

    private final Timer latency;

    // Meters are looked up once per tag combination, not on every call.
    private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

    // by limit and kind of failure
    private final Map<List<String>, Counter> errors = new ConcurrentHashMap<>();

    RateLimitMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.latency = Timer.builder("limiter.redis.latency")
            .description("Time of the Redis round trip that decides a call")
            .register(registry);
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        // a key refused from memory made no round trip: nothing to time
        if (!latency.isZero()) {
            this.latency.record(latency);
        }
        for (Decision decision : decisions) {
            String mode = decision.shadow() ? "shadow" : "enforce";
            // a call decided locally was counted as an error already, when Redis failed it
            counter(decision.local() ? "limiter.decisions.local" : "limiter.decisions", decision.limitId(),
                    decision.outcome().name().toLowerCase(Locale.ROOT), mode)
                .increment();
            countEvents(decision, mode);
        }
    }

    // the call was counted as an error when it timed out: only what Redis decided late is new
    @Override
    public void onLateDecision(List<LimitRequest> requests, List<Decision> decisions) {
        for (Decision decision : decisions) {
            String mode = decision.shadow() ? "shadow" : "enforce";
            counter("limiter.decisions.late", decision.limitId(), null, mode).increment();
            countEvents(decision, mode);
        }
    }

    private void countEvents(Decision decision, String mode) {
        if (decision.alertRaised()) {
            counter("limiter.alerts", decision.limitId(), null, mode).increment();
        }
        if (decision.banStarted()) {
            counter("limiter.bans", decision.limitId(), null, mode).increment();
        }
    }

    @Override
    public void onError(List<LimitRequest> requests, RuntimeException error, Duration latency) {
        this.latency.record(latency);
        String kind = FailureKind.of(error).tag();
        for (LimitRequest request : requests) {
            counter("limiter.decisions", request.limitId(), ERROR, request.limit().mode().name().toLowerCase(Locale.ROOT))
                .increment();
            this.errors.computeIfAbsent(List.of(request.limitId(), kind), (id) -> Counter.builder("limiter.errors")
                .tag("limit", request.limitId())
                .tag("kind", kind)
                .description("Decisions Redis could not make, by kind of failure (connection, timeout, oom, noperm, "
                        + "readonly, ...)")
                .register(this.registry)).increment();
        }
    }

    @Override
    public void onSkipped(String limitId, Limit limit) {
        counter("limiter.skipped", limitId, null, limit.mode().name().toLowerCase(Locale.ROOT)).increment();
    }

    private Counter counter(String name, String limitId, @Nullable String outcome, String mode) {
        List<String> id = (outcome != null) ? List.of(name, limitId, outcome, mode) : List.of(name, limitId, mode);
        return this.counters.computeIfAbsent(id, key -> {
            Counter.Builder builder = Counter.builder(name).tag("limit", limitId).tag("mode", mode);
            if (outcome != null) {
                builder.tag("outcome", outcome);
            }
            return builder.description(description(name)).register(this.registry);
        });
    }

    private static String description(String name) {
        return switch (name) {
            case "limiter.decisions" -> "Rate-limit decisions by limit and outcome";
            case "limiter.alerts" -> "Alerts raised: first calls past a limit's alert threshold in a window";
            case "limiter.skipped" -> "Calls a limit skipped: their key was null or blank and limiter.blank-key is skip";
            case "limiter.decisions.late" -> "Decisions Redis made after their call had timed out (counted as errors)";
            case "limiter.decisions.local" -> "Decisions made in the instance's memory while Redis could not decide "
                    + "(counted as errors)";
            default -> "Bans started: keys that went past a limit with a ban";
        };
    }

}
