package io.github.limiter.autoconfigure.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.limiter.Limit;
import io.github.limiter.LimitChecks;
import io.github.limiter.LimitState;
import io.github.limiter.PrintableKeys;
import io.github.limiter.RateLimitAdmin;
import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.LimitDescription;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.redis.RedisPolicyOverrides;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.dao.DataAccessException;

/**
 * The {@code ratelimits} actuator endpoint: every limit and policy with its configuration and the
 * latest alerts and bans from every instance ({@code GET /actuator/ratelimits}); one key's state
 * ({@code GET /actuator/ratelimits/{limitId}/{key}}); and four write operations: lift a key's ban
 * ({@code POST /actuator/ratelimits/{limitId}/{key}}), forget a key's count and ban
 * ({@code DELETE /actuator/ratelimits/{limitId}/{key}}), change a policy on every instance while the
 * application runs ({@code POST /actuator/ratelimits/{policy}} with any of {@code max},
 * {@code window}, {@code alertAt} and {@code banFor} in a JSON body), and return a policy to its
 * configuration ({@code DELETE /actuator/ratelimits/{policy}}). Exposed and secured like Spring
 * Boot's own endpoints.
 *
 * <p>The writes are off unless the application turns them on with
 * {@code management.endpoint.ratelimits.access=unrestricted}: anyone who may call them can lift
 * bans and switch them off on every instance, so the endpoint's default access is read-only, as
 * Spring Boot's destructive endpoints ({@code shutdown}, {@code heapdump}) have none. Spring Boot
 * then leaves them unmapped: over HTTP, a write to a key answers 405 (the path has its read) and
 * a write to a policy 404. Each write that is done logs, at INFO on this instance, what it changed
 * and who asked: the name of the request's principal as Spring Boot's actuator knows it (Spring
 * Security's authenticated user, or the servlet container's), or {@code anonymous}.
 *
 * @since 0.1.0
 */
@Endpoint(id = RateLimitsEndpoint.ID, defaultAccess = Access.READ_ONLY)
// the policy operations answer through WebEndpointResponse<Object>, which hides what they return
@RegisterReflectionForBinding(RateLimitsEndpoint.PolicyChange.class)
public class RateLimitsEndpoint {

    /** The endpoint's id. */
    static final String ID = "ratelimits";

    private static final Log logger = LogFactory.getLog(RateLimitsEndpoint.class);

    private static final int RECENT = 50;

    private final RateLimitAdvisor advisor;

    private final RateLimitAdmin admin;

    private final @Nullable RedisPolicyOverrides policyOverrides;

    /**
     * Creates the endpoint.
     * @param advisor knows every limit of the application
     * @param admin reads and clears keys, and lists the recent alerts and bans
     * @param policyOverrides where policy changes are kept, or {@code null} where policies cannot
     * be changed while the application runs
     */
    public RateLimitsEndpoint(RateLimitAdvisor advisor, RateLimitAdmin admin,
            @Nullable RedisPolicyOverrides policyOverrides) {
        this.advisor = advisor;
        this.admin = admin;
        this.policyOverrides = policyOverrides;
    }

    /**
     * Lists every limit and policy, and the latest alerts and bans.
     * @return the report
     */
    @ReadOperation
    public Report limits() {
        List<LimitDescription> limits = this.advisor.limits();
        Map<String, PolicyEntry> policies = new LinkedHashMap<>();
        Map<String, PolicyOverride> overrides = this.advisor.overrides().current();
        // a policy with several limits is listed as each of them, by the name its override addresses
        this.advisor.overrides().addressable()
            .forEach((name, policy) -> policies.put(name, new PolicyEntry(name(policy.algorithm()),
                    text(policy.window()), policy.max(), policy.alertAt(), text(policy.banFor()),
                    name(policy.mode()), OverrideEntry.of(overrides.get(name)), name(policy.calendar()),
                    policy.zone())));
        List<RecentEvent> recent;
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
            LimitState state = this.admin.state(limitId, key, limit.limit());
            Instant bannedUntil = state.banned() ? Instant.now().plus(state.banTimeLeft()) : null;
            return new KeyState(limitId, key, state.count(), limit.limit().max(), state.resetAfter().toMillis(),
                    state.banned(), bannedUntil);
        }).orElse(null);
    }

    /**
     * Lifts a key's ban and clears its count, and logs who asked. Writes.
     * @param limitId the limit's id
     * @param key the key
     * @return whether there was a ban; 404 for an unknown limit
     */
    @WriteOperation
    public WebEndpointResponse<Object> unban(@Selector String limitId, @Selector String key) {
        return find(limitId).map((limit) -> {
            boolean wasBanned = this.admin.unban(limitId, key);
            logger.info("Rate limit '" + limitId + "': ban of key '" + PrintableKeys.of(key) + "' lifted by '"
                    + PrintableKeys.of(RequesterAdvisor.requester()) + "' through the ratelimits endpoint ("
                    + (wasBanned ? "it was banned" : "it was not banned; its count is cleared") + ")");
            return new WebEndpointResponse<Object>(
                    Map.<String, Object>of("limitId", limitId, "key", key, "wasBanned", wasBanned));
        }).orElseGet(() -> new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND));
    }

    /**
     * Forgets a key's count, ban and alert, and logs who asked. Writes.
     * @param limitId the limit's id
     * @param key the key
     * @return a confirmation; 404 for an unknown limit
     */
    @DeleteOperation
    public WebEndpointResponse<Object> reset(@Selector String limitId, @Selector String key) {
        return find(limitId).map((limit) -> {
            this.admin.reset(limitId, key);
            logger.info("Rate limit '" + limitId + "': count, ban and alert of key '" + PrintableKeys.of(key)
                    + "' reset by '" + PrintableKeys.of(RequesterAdvisor.requester())
                    + "' through the ratelimits endpoint");
            return new WebEndpointResponse<Object>(Map.<String, Object>of("limitId", limitId, "key", key, "reset", true));
        }).orElseGet(() -> new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND));
    }

    /**
     * Changes a policy on every instance while the application runs: sets the values given, keeps
     * those of its override that are not given, and leaves counts and bans as they are. Applies on
     * this instance at once, and on every other within {@code limiter.policy-overrides.poll-interval}.
     * Writes.
     * @param policy the policy's name
     * @param max the calls allowed per window, or {@code null} to keep
     * @param window the window, as {@code 30s} or {@code PT30S}, or {@code null} to keep
     * @param alertAt the alert threshold, or {@code null} to keep
     * @param banFor the ban's length, as {@code 15m} or {@code PT15M}, or {@code null} to keep
     * @return the policy's override and its limits as they apply now; 400 with a message that names
     * the value and the rule it breaks; 404 for an unknown policy, or where policies cannot be changed
     * while the application runs
     */
    @WriteOperation
    @SuppressWarnings("deprecation") // Spring Boot 3's actuator knows optional parameters by this annotation only
    public WebEndpointResponse<Object> changePolicy(@Selector String policy,
            @org.springframework.lang.Nullable Long max, @org.springframework.lang.Nullable String window,
            @org.springframework.lang.Nullable Long alertAt, @org.springframework.lang.Nullable String banFor) {
        if (this.policyOverrides == null || this.advisor.overrides().configured(policy) == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        try {
            PolicyOverride values = new PolicyOverride(max, duration("window", window), alertAt,
                    duration("banFor", banFor));
            List<LimitDescription> limits = this.policyOverrides.set(policy, values, RequesterAdvisor.requester());
            return new WebEndpointResponse<>(
                    PolicyChange.of(policy, this.advisor.overrides().current().get(policy), limits));
        }
        catch (IllegalArgumentException ex) {
            Map<String, Object> refused = new LinkedHashMap<>();
            refused.put("policy", policy);
            refused.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
            refused.put("error", "Invalid policy change");
            refused.put("message", ex.getMessage());
            return new WebEndpointResponse<>(refused, WebEndpointResponse.STATUS_BAD_REQUEST);
        }
    }

    /**
     * Returns a policy to its configured values on every instance: removes its override. Writes.
     * @param policy the policy's name
     * @return whether there was an override, and the policy's limits as they apply now; 404 for an
     * unknown policy, or where policies cannot be changed while the application runs
     */
    @DeleteOperation
    public WebEndpointResponse<Object> restorePolicy(@Selector String policy) {
        if (this.policyOverrides == null || this.advisor.overrides().configured(policy) == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        boolean had = this.policyOverrides.remove(policy, RequesterAdvisor.requester());
        return new WebEndpointResponse<>(Map.of("policy", policy, "wasOverridden", had, "limits",
                this.advisor.overrides().limitsOf(policy).stream().map(LimitEntry::of).toList()));
    }

    private static @Nullable Duration duration(String name, @Nullable String text) {
        if (text == null) {
            return null;
        }
        Duration duration = LimitChecks.parseWindow(text);
        if (duration == null) {
            throw new IllegalArgumentException(name + " '" + text + "' is not a duration; " + LimitChecks.WINDOW_FORMATS);
        }
        return duration;
    }

    private Optional<LimitDescription> find(String limitId) {
        return this.advisor.limits().stream().filter(limit -> limit.limitId().equals(limitId)).findFirst();
    }

    private List<RecentEvent> recent(List<LimitDescription> limits) {
        return limits.stream()
            .map(LimitDescription::limitId)
            .distinct()
            .flatMap(limitId -> this.admin.recentEvents(limitId).stream())
            .sorted(Comparator.comparing(RecentEvent::at).reversed())
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
            List<RecentEvent> recent, @Nullable String recentUnavailable) {
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
     * @param calendar the calendar period counted in ({@code window} is then its estimated length), or
     * {@code null}
     * @param zone the calendar's zone ({@code UTC} for one chosen per call), or {@code null}
     */
    public record LimitEntry(String limitId, String method, String key, String algorithm, long max, String window,
            long alertAt, @Nullable String banFor, String mode, @Nullable String calendar, @Nullable String zone) {

        static LimitEntry of(LimitDescription description) {
            Limit limit = description.limit();
            return new LimitEntry(description.limitId(), description.method(), description.key(),
                    limit.algorithm().name(), limit.max(), limit.window().toString(), limit.alertAt(),
                    text(limit.banFor()), limit.mode().name(), name(limit.calendar()),
                    (limit.zone() != null) ? limit.zone().getId() : null);
        }

    }

    /**
     * One policy's configuration, as set ({@code null} where not set), and its override.
     *
     * @param algorithm the algorithm
     * @param window the window, ISO-8601
     * @param max the calls allowed per window
     * @param alertAt the alert threshold
     * @param banFor the ban's length, ISO-8601
     * @param mode the mode
     * @param override the values changed while the application runs, or {@code null}
     * @param calendar the calendar period counted in
     * @param zone the calendar's zone, or the expression that chooses it per call
     */
    public record PolicyEntry(@Nullable String algorithm, @Nullable String window, @Nullable Long max,
            @Nullable Long alertAt, @Nullable String banFor, @Nullable String mode, @Nullable OverrideEntry override,
            @Nullable String calendar, @Nullable String zone) {
    }

    /**
     * A policy's override: the values that replace its configured ones ({@code null} where not
     * replaced).
     *
     * @param max the calls allowed per window
     * @param window the window, ISO-8601
     * @param alertAt the alert threshold
     * @param banFor the ban's length, ISO-8601
     */
    public record OverrideEntry(@Nullable Long max, @Nullable String window, @Nullable Long alertAt,
            @Nullable String banFor) {

        static @Nullable OverrideEntry of(@Nullable PolicyOverride override) {
            return (override != null) ? new OverrideEntry(override.max(), text(override.window()), override.alertAt(),
                    text(override.banFor())) : null;
        }

    }

    /**
     * A policy after a change.
     *
     * @param policy the policy's name
     * @param override its override now, or {@code null}
     * @param limits its limits, as they apply now
     */
    public record PolicyChange(String policy, @Nullable OverrideEntry override, List<LimitEntry> limits) {

        static PolicyChange of(String policy, @Nullable PolicyOverride override, List<LimitDescription> limits) {
            return new PolicyChange(policy, OverrideEntry.of(override), limits.stream().map(LimitEntry::of).toList());
        }

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
