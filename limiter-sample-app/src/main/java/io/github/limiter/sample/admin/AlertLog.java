package io.github.limiter.sample.admin;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.springframework.stereotype.Component;

/**
 * The latest alerts for the administrator, newest last, at most {@value #CAPACITY}.
 */
@Component
public class AlertLog {

    static final int CAPACITY = 100;

    private final Deque<Alert> alerts = new ArrayDeque<>();

    synchronized void add(Alert alert) {
        if (this.alerts.size() == CAPACITY) {
            this.alerts.removeFirst();
        }
        this.alerts.addLast(alert);
    }

    /**
     * Returns the alerts, oldest first.
     * @return a copy of the alerts
     */
    public synchronized List<Alert> alerts() {
        return new ArrayList<>(this.alerts);
    }

    /**
     * An alert raised for a user reading too fast.
     *
     * @param at when the alert was raised
     * @param username the user
     * @param reads the user's reads in the window when the alert was raised
     * @param alertAt the alert threshold
     * @param windowSeconds the window's length in seconds
     */
    public record Alert(Instant at, String username, long reads, long alertAt, long windowSeconds) {
    }

}
