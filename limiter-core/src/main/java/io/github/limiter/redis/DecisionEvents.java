package io.github.limiter.redis;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes the alert and ban events decisions call for as Spring application events, with one
 * WARN line each, also for a decision Redis made after its call had timed out
 * ({@link #onLateDecision}): exactly one event per alert and per ban. A shadow limit's would-be ban
 * is logged, not published: nothing may act on it.
 *
 * <p>Internal API; it may change in any release.
 */
public final class DecisionEvents implements RateLimitListener {

    private static final Log logger = LogFactory.getLog(DecisionEvents.class);

    private final ApplicationEventPublisher publisher;

    /**
     * Creates the listener.
     * @param publisher publishes the events
     */
    public DecisionEvents(ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        for (int i = 0; i < requests.size(); i++) {
            publish(requests.get(i), decisions.get(i), "");
        }
    }

    @Override
    public void onLateDecision(List<LimitRequest> requests, List<Decision> decisions) {
        for (int i = 0; i < requests.size(); i++) {
            publish(requests.get(i), decisions.get(i), " (decided after its call had timed out)");
        }
    }

    private void publish(LimitRequest request, Decision decision, String late) {
        String mode = decision.shadow() ? " (shadow)" : "";
        if (decision.alertRaised()) {
            logger.warn("Rate limit '" + request.limitId() + "'" + mode + " alert: key '" + request.key() + "' made "
                    + decision.count() + " calls in its window, past the alert threshold of "
                    + request.limit().alertAt() + late);
            this.publisher.publishEvent(new RateLimitAlertEvent(request.limitId(), request.key(), decision.count(),
                    request.limit().alertAt(), request.limit().window()));
        }
        Duration banFor = request.limit().banFor();
        if (decision.banStarted() && banFor != null) {
            if (decision.shadow()) {
                logger.warn("Rate limit '" + request.limitId() + "' (shadow) would have banned key '" + request.key()
                        + "' for " + banFor + " for going past " + request.limit().max() + " calls in its window"
                        + late);
                return;
            }
            logger.warn("Rate limit '" + request.limitId() + "' ban: key '" + request.key() + "' went past "
                    + request.limit().max() + " calls in its window and is banned for " + banFor + late);
            this.publisher.publishEvent(new RateLimitBanEvent(request.limitId(), request.key(), banFor));
        }
    }

}
