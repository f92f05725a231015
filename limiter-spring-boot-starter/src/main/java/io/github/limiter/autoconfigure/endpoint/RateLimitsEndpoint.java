package io.github.limiter.autoconfigure.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.limiter.Limit;
import io.github.limiter.LimitState;
import io.github.limiter.RateLimiter;
import io.github.limiter.aop.LimitDescription;
import io.github.limiter.aop.RateLimitAdvisor;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.redis.RecentEvents;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.dao.DataAccessException;

/**
 * The {@code ratelimits} actuator endpoint: every limit and policy with its configuration and the
 * latest alerts and bans from every instance ({@code GET /actuator/ratelimits}); one key's state
 * ({@code GET /actuator/ratelimits/{limitId}/{key}}); and two write operations: lift a key's ban
 * ({@code POST /actuator/ratelimits/{limitId}/{key}}) and forget a key's count and ban
 * ({@code DELETE /actuator/ratelimits/{limitId}/{key}}). Exposed and secured like Spring Boot's own
 * endpoints.
 *
 * @since 0.1.0
 */
@Endpoint(id = "ratelimits")
public class RateLimitsEndpoint {

    private static final int RECENT = 50;

    private final RateLimitAdvisor advisor;

    private final RateLimiter rateLimiter;

    private final LimiterProperties properties;

    private final @Nullable RecentEvents recentEvents;

    /**
     * Creates the endpoint.
     * @param advisor knows every limit of the application
     * @param rateLimiter reads and clears keys
     * @param properties the policies
     * @param recentEvents the recent alerts and bans, or {@code null} where none are kept
     */
    public RateLimitsEndpoint(RateLimitAdvisor advisor, RateLimiter rateLimiter, LimiterProperties properties,
            @Nullable RecentEvents recentEvents) {
        this.advisor = advisor;
        this.rateLimiter = rateLimiter;
        this.properties = properties;
        this.recentEvents = recentEvents;
    }

    /**
     * Lists every limit and policy, and the latest alerts and bans.
     * @return the report
     */
    @ReadOperation
    public Report limits() {
        List<LimitDescription> limits = this.advisor.limits();
        Map<String, PolicyEntry> policies = new LinkedHashMap<>();
        this.properties.getPolicies()
            .forEach((name, policy) -> policies.put(name, new PolicyEntry(name(policy.getAlgorithm()),
                    text(policy.getWindow()), policy.getMax(), policy.getAlertAt(), text(policy.getBanFor()),
                    name(policy.getMode()))));
        List<RecentEvents.Event> recent;
        String recentUnavailable = null;
        try {
            recent = recent(limits);
        }
        catch (DataAccessException ex) {
            // the limits and policies are this instance's own: still worth showing while Redis is away
            recent = List.of();
            recentUnavailable = "Redis cannot be read: " + ex.getMessage();
        }
        return new Report(limits.stream().map(LimitEntry::of).toList(), policies, recent, recentUnavailable);
    }

    /**
     * Reads one key's state under a limit, without counting a call.
     * @param limitId the limit's id
     * @param key the key
     * @return the state, or {@code null} (404) for an unknown limit
     */
    @ReadOperation
    public @Nullable KeyState key(@Selector String limitId, @Selector String key) {
        return find(limitId).map(limit -> {
            LimitState state = this.rateLimiter.state(limitId, key, limit.limit());
            Instant bannedUntil = state.banned() ? Instant.now().plus(state.banTimeLeft()) : null;
            return new KeyState(limitId, key, state.count(), limit.limit().max(), state.resetAfter().toMillis(),
                    state.banned(), bannedUntil);
        }).orElse(null);
    }

    /**
     * Lifts a key's ban and clears its count. Writes.
     * @param limitId the limit's id
     * @param key the key
     * @return whether there was a ban, or {@code null} (404) for an unknown limit
     */
    @WriteOperation
    public @Nullable Map<String, Object> unban(@Selector String limitId, @Selector String key) {
        return find(limitId).map(limit -> Map.<String, Object>of("limitId", limitId, "key", key, "wasBanned",
                this.rateLimiter.unban(limitId, key))).orElse(null);
    }

    /**
     * Forgets a key's count, ban and alert. Writes.
     * @param limitId the limit's id
     * @param key the key
     * @return a confirmation, or {@code null} (404) for an unknown limit
     */
    @DeleteOperation
    public @Nullable Map<String, Object> reset(@Selector String limitId, @Selector String key) {
        return find(limitId).map(limit -> {
            this.rateLimiter.reset(limitId, key);
            return Map.<String, Object>of("limitId", limitId, "key", key, "reset", true);
        }).orElse(null);
    }

    private Optional<LimitDescription> find(String limitId) {
        return this.advisor.limits().stream().filter(limit -> limit.limitId().equals(limitId)).findFirst();
    }

    private List<RecentEvents.Event> recent(List<LimitDescription> limits) {
        if (this.recentEvents == null) {
            return List.of();
        }
        return limits.stream()
            .map(LimitDescription::limitId)
            .distinct()
            .flatMap(limitId -> this.recentEvents.recent(limitId).stream())
            .sorted(Comparator.comparing(RecentEvents.Event::at).reversed())
            .limit(RECENT)
            .toList();
    }

    private static @Nullable String name(@Nullable Enum<?> value) {
        return (value != null) ? value.name() : null;
    }

    private static @Nullable String text(@Nullable Duration duration) {
        return (duration != null) ? duration.toString() : null;
    }

    /**
     * The endpoint's main report.
     *
     * @param limits every limit of the application
     * @param policies the configured policies, by name
     * @param recent the latest alerts and bans from every instance, newest first; empty while Redis
     * cannot be read
     * @param recentUnavailable why the recent alerts and bans could not be read, or {@code null}
     */
    public record Report(List<LimitEntry> limits, Map<String, PolicyEntry> policies,
            List<RecentEvents.Event> recent, @Nullable String recentUnavailable) {
    }

    /**
     * One limit's configuration.
     *
     * @param limitId the limit's id
     * @param method the limited method
     * @param key the key expression
     * @param algorithm the algorithm
     * @param max the calls allowed per window
     * @param window the window, ISO-8601
     * @param alertAt the alert threshold, 0 for none
     * @param banFor the ban's length, ISO-8601, or {@code null}
     * @param mode enforce or shadow
     */
    public record LimitEntry(String limitId, String method, String key, String algorithm, long max, String window,
            long alertAt, @Nullable String banFor, String mode) {

        static LimitEntry of(LimitDescription description) {
            Limit limit = description.limit();
            return new LimitEntry(description.limitId(), description.method(), description.key(),
                    limit.algorithm().name(), limit.max(), limit.window().toString(), limit.alertAt(),
                    text(limit.banFor()), limit.mode().name());
        }

    }

    /**
     * One policy's configuration, as set ({@code null} where not set).
     *
     * @param algorithm the algorithm
     * @param window the window, ISO-8601
     * @param max the calls allowed per window
     * @param alertAt the alert threshold
     * @param banFor the ban's length, ISO-8601
     * @param mode the mode
     */
    public record PolicyEntry(@Nullable String algorithm, @Nullable String window, @Nullable Long max,
            @Nullable Long alertAt, @Nullable String banFor, @Nullable String mode) {
    }

    /**
     * A key's state under a limit.
     *
     * @param limitId the limit's id
     * @param key the key
     * @param count the calls counted in its window (tokens in use for a bucket)
     * @param max the calls allowed per window
     * @param resetAfterMillis the time left in its window
     * @param banned whether the key is banned
     * @param bannedUntil when the ban ends, or {@code null}
     */
    public record KeyState(String limitId, String key, long count, long max, long resetAfterMillis, boolean banned,
            @Nullable Instant bannedUntil) {
    }

}
