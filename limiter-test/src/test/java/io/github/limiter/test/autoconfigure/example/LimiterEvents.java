package io.github.limiter.test.autoconfigure.example;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The alerts and bans the application heard, as an application's own listeners would hear them.
 */
@Component
public class LimiterEvents {

    private final List<Object> heard = new CopyOnWriteArrayList<>();

    @EventListener
    void onAlert(RateLimitAlertEvent event) {
        this.heard.add(event);
    }

    @EventListener
    void onBan(RateLimitBanEvent event) {
        this.heard.add(event);
    }

    /**
     * Returns the events heard so far, oldest first.
     * @return the alert and ban events
     */
    public List<Object> heard() {
        return List.copyOf(this.heard);
    }

    /** Forgets the events heard so far. */
    public void clear() {
        this.heard.clear();
    }

}
