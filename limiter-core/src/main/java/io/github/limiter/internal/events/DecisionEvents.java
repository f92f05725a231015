package io.github.limiter.internal.events;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.PrintableKeys;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitListener;
import io.github.limiter.redis.RedisRateLimiterBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes the alert and ban events decisions call for as Spring application events, also for a
 * decision Redis made after its call had timed out ({@link #onLateDecision}): exactly one event per
 * alert and per ban. An alert or ban an instance decided in its own memory while Redis could not
 * ({@link Decision#local()}) is published too, its line saying so: one per instance that decided it. A shadow limit's would-be ban is logged, not published: nothing may act on it.
 *
 * <p>Each alert and ban also gets a WARN line, up to a bound: the first {@code maxLogLines} of an
 * interval are written, the rest counted in one line when the interval ends (see
 * {@code limiter.event-log.*}), so that an attacker who rotates keys cannot drive the log. The
 * events themselves are never bounded. {@link #close()} writes the current interval's count.
 *
 * <p>{@link RedisRateLimiterBuilder#publishEvents} adds one.
 */
public final class DecisionEvents implements RateLimitListener, AutoCloseable {

    /** The WARN lines for alerts and bans per interval unless told otherwise. */
    public static final int DEFAULT_MAX_LOG_LINES = 10;

    /** The interval of {@link #DEFAULT_MAX_LOG_LINES} unless told otherwise. */
    public static final Duration DEFAULT_LOG_INTERVAL = Duration.ofMinutes(1);

    /**
     * The category of the alert and ban lines: a name of its own, which the docs give operators to
     * filter or route them by, whatever class writes them.
     */
    public static final String LOG_CATEGORY = "io.github.limiter.events";

    private static final Log logger = LogFactory.getLog(LOG_CATEGORY);

    private final ApplicationEventPublisher publisher;

    private final AlertAndBanLog log;

    /**
     * Creates the listener, with {@link #DEFAULT_MAX_LOG_LINES} per {@link #DEFAULT_LOG_INTERVAL}.
     * @param publisher publishes the events
     */
    public DecisionEvents(ApplicationEventPublisher publisher) {
        this(publisher, DEFAULT_MAX_LOG_LINES, DEFAULT_LOG_INTERVAL);
    }

    /**
     * Creates the listener.
     * @param publisher publishes the events
     * @param maxLogLines the most WARN lines for alerts and bans per interval; 0 for only the count
     * @param logInterval the interval
     * @since 0.1.0
     */
    public DecisionEvents(ApplicationEventPublisher publisher, int maxLogLines, Duration logInterval) {
        this.publisher = Objects.requireNonNull(publisher, "publisher must not be null");
        this.log = new AlertAndBanLog(logger::warn, maxLogLines,
                Objects.requireNonNull(logInterval, "logInterval must not be null"));
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        for (int i = 0; i < requests.size(); i++) {
            Decision decision = decisions.get(i);
            publish(requests.get(i), decision, decision.local() ? " (decided in this instance's memory while Redis "
                    + "cannot decide)" : "");
        }
    }

    @Override
    public void onLateDecision(List<LimitRequest> requests, List<Decision> decisions) {
        for (int i = 0; i < requests.size(); i++) {
            publish(requests.get(i), decisions.get(i), " (decided after its call had timed out)");
        }
    }

    /** Writes the count of the lines the current interval left out, if any. */
    @Override
    public void close() {
        this.log.close();
    }

    private void publish(LimitRequest request, Decision decision, String late) {
        String mode = decision.shadow() ? " (shadow)" : "";
        boolean warn = logger.isWarnEnabled();
        if (decision.alertRaised()) {
            if (warn) {
                this.log.alert(request.limitId(), () -> "Rate limit '" + request.limitId() + "'" + mode + " alert: key '"
                        + PrintableKeys.of(request.key()) + "' made " + decision.count() + " calls in its window, past the alert "
                        + "threshold of " + request.limit().alertAt() + late);
            }
            this.publisher.publishEvent(new RateLimitAlertEvent(request.limitId(), request.key(), decision.count(),
                    request.limit().alertAt(), request.limit().window()));
        }
        Duration banFor = request.limit().banFor();
        if (decision.banStarted() && banFor != null) {
            if (decision.shadow()) {
                if (warn) {
                    this.log.ban(request.limitId(), () -> "Rate limit '" + request.limitId() + "' (shadow) would have "
                            + "banned key '" + PrintableKeys.of(request.key()) + "' for " + banFor + " for going past "
                            + request.limit().max() + " calls in its window" + late);
                }
                return;
            }
            if (warn) {
                this.log.ban(request.limitId(), () -> "Rate limit '" + request.limitId() + "' ban: key '"
                        + PrintableKeys.of(request.key()) + "' went past " + request.limit().max() + " calls in its window and is banned for " + banFor
                        + late);
            }
            this.publisher.publishEvent(new RateLimitBanEvent(request.limitId(), request.key(), banFor));
        }
    }

}
