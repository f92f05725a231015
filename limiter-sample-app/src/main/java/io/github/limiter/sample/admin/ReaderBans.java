package io.github.limiter.sample.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RecentEvents;
import io.github.limiter.sample.answers.AnswerController;

import org.springframework.stereotype.Component;

/**
 * The alerts and bans of answer reads, read from what the limiter keeps in Redis for every
 * instance: its recent events of the {@code answers} limit, and each key's ban. An instance that
 * did not raise an alert or start a ban shows it all the same, and a ban lifted anywhere is gone
 * everywhere.
 */
@Component
public class ReaderBans {

    private final RecentEvents recentEvents;

    private final RateLimiter rateLimiter;

    ReaderBans(RecentEvents recentEvents, RateLimiter rateLimiter) {
        this.recentEvents = recentEvents;
        this.rateLimiter = rateLimiter;
    }

    /**
     * Returns the recent alerts, newest first.
     * @return at most {@link RecentEvents#CAPACITY} alerts
     */
    public List<Alert> alerts() {
        return this.recentEvents.recent(AnswerController.LIMIT_ID)
            .stream()
            .filter((event) -> event.type().equals("alert"))
            .map((event) -> new Alert(event.at(), event.key(), event.count(), event.instance()))
            .toList();
    }

    /**
     * Returns the bans in force, newest first: those of the recent bans whose key is still banned.
     * @return the active bans
     */
    public List<Ban> bans() {
        Instant now = Instant.now();
        Set<String> seen = new HashSet<>();
        List<Ban> bans = new ArrayList<>();
        for (RecentEvents.Event event : this.recentEvents.recent(AnswerController.LIMIT_ID)) {
            if (event.type().equals("ban") && !event.shadow() && seen.add(event.key())) {
                Duration left = this.rateLimiter.banTimeLeft(AnswerController.LIMIT_ID, event.key());
                if (!left.isZero()) {
                    bans.add(new Ban(event.key(), now.plus(left), event.at(), event.instance()));
                }
            }
        }
        return bans;
    }

    /**
     * Lifts a user's ban and clears the user's count, on every instance at once.
     * @param username the user
     * @return whether the user was banned
     */
    public boolean lift(String username) {
        return this.rateLimiter.unban(AnswerController.LIMIT_ID, username);
    }

    /**
     * An alert raised for a user reading too fast.
     *
     * @param at when it was raised
     * @param username the user
     * @param reads the user's reads in the window at the time
     * @param instance the instance that raised it, as {@code pid@host}
     */
    public record Alert(Instant at, String username, long reads, String instance) {
    }

    /**
     * A ban in force.
     *
     * @param username the banned user
     * @param until when it ends
     * @param bannedAt when it started
     * @param instance the instance that started it, as {@code pid@host}
     */
    public record Ban(String username, Instant until, Instant bannedAt, String instance) {
    }

}
