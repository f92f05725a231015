package io.github.limiter.sample.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.sample.answers.AnswerLimits;

import org.springframework.stereotype.Component;

/**
 * The alerts and bans of answer reads, read from what the limiter keeps in Redis for every
 * instance: its recent events of each plan's limit ({@code answers.free}, {@code answers.pro}),
 * and each key's ban. An instance that did not raise an alert or start a ban shows it all the same,
 * and a ban lifted anywhere is gone everywhere.
 */
@Component
public class ReaderBans {

    private final RateLimitAdmin rateLimits;

    private final AnswerLimits answerLimits;

    ReaderBans(RateLimitAdmin rateLimits, AnswerLimits answerLimits) {
        this.rateLimits = rateLimits;
        this.answerLimits = answerLimits;
    }

    /**
     * Returns the recent alerts of every plan, newest first.
     * @return at most the 100 latest alerts per plan ({@link RateLimitAdmin#recentEvents})
     */
    public List<Alert> alerts() {
        return recent().stream()
            .filter((event) -> event.type().equals("alert"))
            .map((event) -> new Alert(event.at(), event.key(), event.count(), event.instance(),
                    AnswerLimits.planOf(event.limitId())))
            .toList();
    }

    /**
     * Returns the bans in force, newest first: those of the recent bans whose key is still banned
     * under the limit that banned it.
     * @return the active bans
     */
    public List<Ban> bans() {
        Instant now = Instant.now();
        Set<String> seen = new HashSet<>();
        List<Ban> bans = new ArrayList<>();
        for (RecentEvent event : recent()) {
            if (event.type().equals("ban") && !event.shadow() && seen.add(event.limitId() + " " + event.key())) {
                Duration left = this.rateLimits.banTimeLeft(event.limitId(), event.key());
                if (!left.isZero()) {
                    bans.add(new Ban(event.key(), now.plus(left), event.at(), event.instance(),
                            AnswerLimits.planOf(event.limitId())));
                }
            }
        }
        return bans;
    }

    /**
     * Lifts a user's ban and clears the user's count, under every plan's limit, on every instance
     * at once.
     * @param username the user
     * @return whether the user was banned
     */
    public boolean lift(String username) {
        boolean banned = false;
        for (String limitId : this.answerLimits.limitIds()) {
            banned |= this.rateLimits.unban(limitId, username);
        }
        return banned;
    }

    /** The recent events of every plan's limit, newest first. */
    private List<RecentEvent> recent() {
        return this.answerLimits.limitIds()
            .stream()
            .flatMap((limitId) -> this.rateLimits.recentEvents(limitId).stream())
            .sorted(Comparator.comparing(RecentEvent::at).reversed())
            .toList();
    }

    /**
     * An alert raised for a user reading too fast.
     *
     * @param at when it was raised
     * @param username the user
     * @param reads the user's reads in the window at the time
     * @param instance the instance that raised it, as {@code pid@host}
     * @param plan the plan whose limit raised it, as {@code free}
     */
    public record Alert(Instant at, String username, long reads, String instance, String plan) {
    }

    /**
     * A ban in force.
     *
     * @param username the banned user
     * @param until when it ends
     * @param bannedAt when it started
     * @param instance the instance that started it, as {@code pid@host}
     * @param plan the plan whose limit banned the user, as {@code free}
     */
    public record Ban(String username, Instant until, Instant bannedAt, String instance, String plan) {
    }

}
