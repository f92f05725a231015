package io.github.limiter.redis;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes the alert and ban events a decision calls for. A failing listener is logged, never
 * allowed to turn the decision into an error.
 */
final class DecisionEvents {

    private static final Log logger = LogFactory.getLog(DecisionEvents.class);

    private final @Nullable ApplicationEventPublisher publisher;

    DecisionEvents(@Nullable ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    void publish(String limitId, String key, Limit limit, Decision decision) {
        if (decision.alertRaised()) {
            logger.warn("Rate limit '" + limitId + "' alert: key '" + key + "' made " + decision.count()
                    + " calls in its window, past the alert threshold of " + limit.alertAt());
            publish(new RateLimitAlertEvent(limitId, key, decision.count(), limit.alertAt(), limit.window()));
        }
        if (decision.banStarted() && limit.banFor() != null) {
            logger.warn("Rate limit '" + limitId + "' ban: key '" + key + "' went past " + limit.max()
                    + " calls in its window and is banned for " + limit.banFor());
            publish(new RateLimitBanEvent(limitId, key, limit.banFor()));
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
