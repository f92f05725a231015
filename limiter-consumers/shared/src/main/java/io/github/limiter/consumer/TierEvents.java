package io.github.limiter.consumer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** The alert and ban events the application heard, as a user's listeners would. */
@Component
public class TierEvents {

    private final List<RateLimitAlertEvent> alerts = new CopyOnWriteArrayList<>();

    private final List<RateLimitBanEvent> bans = new CopyOnWriteArrayList<>();

    @EventListener
    void onAlert(RateLimitAlertEvent event) {
        this.alerts.add(event);
    }

    @EventListener
    void onBan(RateLimitBanEvent event) {
        this.bans.add(event);
    }

    public List<RateLimitAlertEvent> alerts() {
        return this.alerts;
    }

    public List<RateLimitBanEvent> bans() {
        return this.bans;
    }

}
