package io.github.limiter.sample.admin;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * The app's record of the bans it imposed, for the admin API.
 */
@Component
public class BanRegistry {

    private final Map<String, Instant> untilByUser = new ConcurrentHashMap<>();

    void record(String username, Instant until) {
        this.untilByUser.put(username, until);
    }

    boolean lift(String username) {
        return this.untilByUser.remove(username) != null;
    }

    /**
     * Returns the bans still in force, soonest to end first.
     * @return the active bans
     */
    public List<Ban> active() {
        Instant now = Instant.now();
        this.untilByUser.values().removeIf(until -> !until.isAfter(now));
        return this.untilByUser.entrySet()
            .stream()
            .map(entry -> new Ban(entry.getKey(), entry.getValue()))
            .sorted(Comparator.comparing(Ban::until))
            .toList();
    }

    /**
     * A user's ban.
     *
     * @param username the banned user
     * @param until when the ban ends
     */
    public record Ban(String username, Instant until) {
    }

}
