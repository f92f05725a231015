package io.github.limiter.redis;

import java.time.Duration;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes the alert and ban events a decision calls for, with one WARN line each. A failing
 * listener is logged, never allowed to turn the decision into an error.
 */
final class DecisionEvents {

    private static final Log logger = LogFactory.getLog(DecisionEvents.class);

    private final @Nullable ApplicationEventPublisher publisher;

    DecisionEvents(@Nullable ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    void publish(LimitRequest request, Decision decision) {
        if (decision.alertRaised()) {
            logger.warn("Rate limit '" + request.limitId() + "' alert: key '" + request.key() + "' made "
                    + decision.count() + " calls in its window, past the alert threshold of "
                    + request.limit().alertAt());
            publish(new RateLimitAlertEvent(request.limitId(), request.key(), decision.count(),
                    request.limit().alertAt(), request.limit().window()));
        }
        Duration banFor = request.limit().banFor();
        if (decision.banStarted() && banFor != null) {
            logger.warn("Rate limit '" + request.limitId() + "' ban: key '" + request.key() + "' went past "
                    + request.limit().max() + " calls in its window and is banned for " + banFor);
            publish(new RateLimitBanEvent(request.limitId(), request.key(), banFor));
        }
    }

    private void publish(Object event) {
        if (this.publisher == null) {
            return;
        }
        try {
            this.publisher.publishEvent(event);
        }
        catch (RuntimeException ex) {
            logger.error("A listener failed on " + event, ex);
        }
    }

}
