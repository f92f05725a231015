package io.github.limiter.policy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.github.limiter.Limit;
import io.github.limiter.LimitChecks;
import io.github.limiter.PrintableKeys;
import io.github.limiter.policy.RateLimitPolicyChangedEvent.Origin;
import io.github.limiter.LimitDescription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The policy overrides this instance applies: values that replace a policy's configured
 * {@code max}, {@code window}, {@code alert-at} or {@code ban-for} while the application runs,
 * without a restart and without touching any key's count or ban. Where they are kept and how every
 * instance hears of them is the store's business (the Spring Boot starter keeps them in Redis); this
 * class checks them against the application's limits, applies them to the calls that follow, logs
 * each change once, and tells its listeners.
 *
 * <p>A limit takes an override's value only where its annotation does not write that attribute
 * itself. Counts and bans are kept: each decision reads the key's state in Redis with the limit in
 * force now, so a lower {@code max} refuses a key already past it on its next call, and a higher one
 * lets it go on.
 *
 * @since 0.1.0
 */
public final class PolicyOverrides {

    private static final Log logger = LogFactory.getLog(PolicyOverrides.class);

    private final Limits limits;

    private final List<Consumer<RateLimitPolicyChangedEvent>> listeners = new CopyOnWriteArrayList<>();

    // limits whose override cannot apply (a limit resolved after the override was checked): logged once each
    private final Set<String> refused = ConcurrentHashMap.newKeySet();

    private volatile State state = new State(Map.of());

    // the policies by the names overrides address: a policy with several limits as each of them, <name>.<index>
    private volatile @Nullable AddressedPolicies addressed;

    /**
     * Creates the overrides of an application's limits, none in force.
     * @param limits the policies and the limits that take their values from them
     */
    public PolicyOverrides(Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits must not be null");
    }

    /**
     * Returns the overrides in force on this instance.
     * @return the overrides, by policy name
     */
    public Map<String, PolicyOverride> current() {
        return this.state.overrides;
    }

    /**
     * Returns a policy as configured when the application started, before any override.
     * @param policy the policy's name
     * @return the policy, or {@code null} if there is none of that name
     */
    public @Nullable LimitPolicy configured(String policy) {
        return addressed().byName().get(policy);
    }

    /**
     * Returns every policy an override can address, as configured: each policy of one limit by its
     * name, and each limit of a policy with several as {@code <name>.<index>} ({@code api.0},
     * {@code api.1}), merged over the policy's settings.
     * @return the policies, by the name an override addresses
     */
    public Map<String, LimitPolicy> addressable() {
        return addressed().addressable();
    }

    private AddressedPolicies addressed() {
        AddressedPolicies addressed = this.addressed;
        if (addressed == null) {
            addressed = new AddressedPolicies(this.limits.policies());
            this.addressed = addressed;
        }
        return addressed;
    }

    /**
     * Returns whether the application has policies, which alone can be overridden.
     * @return {@code false} if no policy is configured
     */
    public boolean hasPolicies() {
        return !this.limits.policies().isEmpty();
    }

    /**
     * Adds a listener told of every change this instance applies.
     * @param listener the listener
     */
    public void addListener(Consumer<RateLimitPolicyChangedEvent> listener) {
        this.listeners.add(Objects.requireNonNull(listener, "listener must not be null"));
    }

    /**
     * Checks an override against the policy's configuration and every limit that uses the policy.
     * @param policy the policy's name
     * @param override the override, whole (merged with the one in force, if any); an empty one
     * only checks that the policy exists
     * @return the policy's limits as they would apply
     * @throws IllegalArgumentException with a message that names the policy, the limit, the field and
     * the value, if the policy is not defined or a value breaks a rule
     */
    public List<LimitDescription> check(String policy, PolicyOverride override) {
        LimitPolicy configured = configured(policy);
        if (configured == null) {
            throw new IllegalArgumentException("No rate limit policy '" + policy + "'; defined policies: "
                    + new TreeSet<>(addressable().keySet()));
        }
        if (!configured.limits().isEmpty()) {
            throw new IllegalArgumentException(AddressedPolicies.several(policy, configured));
        }
        if (override.isEmpty()) {
            return limitsOf(policy);
        }
        if (configured.calendar() != null && override.window() != null) {
            throw new IllegalArgumentException("Policy '" + policy + "' counts calendar " + configured.calendar()
                    + " periods and cannot take window " + override.window() + " (override: " + override.describe()
                    + ")");
        }
        Duration window = (configured.calendar() != null) ? configured.calendar().estimatedLength()
                : pick(override.window(), configured.window());
        List<LimitChecks.Problem> problems = LimitChecks.problems(configured.algorithm(), window,
                pick(override.max(), configured.max()),
                pick(override.alertAt(), configured.alertAt()), pick(override.banFor(), configured.banFor()));
        if (!problems.isEmpty()) {
            LimitChecks.Problem problem = problems.get(0);
            throw new IllegalArgumentException("Policy '" + policy + "' would have " + problem.field().property()
                    + " " + problem.value() + ", which " + problem.message() + " (override: " + override.describe()
                    + ")");
        }
        List<LimitDescription> limits = new ArrayList<>();
        for (OverridableLimit spec : specsOf(policy)) {
            try {
                limits.add(spec.describedAs(spec.overriddenBy(override)));
            }
            catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("Policy '" + policy + "' cannot take " + override.describe() + ": "
                        + ex.getMessage(), ex);
            }
        }
        return limits;
    }

    /**
     * Replaces the overrides in force with {@code latest}: applies each policy whose override
     * changed, logs it once, and tells the listeners. An override that does not pass
     * {@link #check} here (written by an instance with other limits) is logged and not applied:
     * the policy keeps its configured values on this instance.
     * @param latest every override, by policy name
     * @param origin where the change came from
     * @param requester who asked for the change, where this instance made it: the name its log line
     * gives, escaped there as a key is; {@code null} where no one asked or another instance made it
     * @return the changes applied
     */
    public synchronized List<RateLimitPolicyChangedEvent> update(Map<String, PolicyOverride> latest,
            RateLimitPolicyChangedEvent.Origin origin, @Nullable String requester) {
        Map<String, PolicyOverride> before = this.state.overrides;
        Map<String, PolicyOverride> after = new HashMap<>();
        List<String> changed = new ArrayList<>();
        Set<String> policies = new LinkedHashSet<>(before.keySet());
        policies.addAll(latest.keySet());
        for (String policy : policies) {
            PolicyOverride wanted = latest.get(policy);
            if (wanted != null && wanted.isEmpty()) {
                wanted = null;
            }
            if (wanted != null && !wanted.equals(before.get(policy))) {
                try {
                    check(policy, wanted);
                }
                catch (IllegalArgumentException ex) {
                    logger.error("Rate limit policy override not applied on this instance: " + ex.getMessage()
                            + "; the policy keeps " + ((before.get(policy) != null) ? "its previous override "
                                    + before.get(policy).describe() : "its configured values"));
                    wanted = before.get(policy);
                }
            }
            if (wanted != null) {
                after.put(policy, wanted);
            }
            if (!Objects.equals(wanted, before.get(policy))) {
                changed.add(policy);
            }
        }
        if (changed.isEmpty()) {
            return List.of();
        }
        this.state = new State(after);
        List<RateLimitPolicyChangedEvent> events = new ArrayList<>();
        for (String policy : changed) {
            RateLimitPolicyChangedEvent event = new RateLimitPolicyChangedEvent(policy, before.get(policy),
                    after.get(policy), limitsOf(policy), origin, requester);
            log(event);
            events.add(event);
            for (Consumer<RateLimitPolicyChangedEvent> listener : this.listeners) {
                try {
                    listener.accept(event);
                }
                catch (RuntimeException ex) {
                    logger.error("A listener of rate limit policy changes failed", ex);
                }
            }
        }
        return events;
    }

    /**
     * Returns the limit a call counts under now: the limit as declared, overridden by its policy's
     * override, if any. Asked on every call: without an override in force, nothing is looked up.
     * @param spec the limit as declared
     * @return the limit in force
     */
    public Limit limitOf(OverridableLimit spec) {
        State state = this.state;
        String policy = spec.policy();
        if (policy == null || state.overrides.isEmpty()) {
            return spec.limit();
        }
        PolicyOverride override = state.overrides.get(policy);
        if (override == null) {
            return spec.limit();
        }
        Map<String, Limit> byMethod = state.limits.computeIfAbsent(spec.limitId(), (id) -> new ConcurrentHashMap<>(4));
        Limit limit = byMethod.get(spec.method());
        if (limit == null) {
            limit = overridden(spec, override);
            byMethod.putIfAbsent(spec.method(), limit);
        }
        return limit;
    }

    private Limit overridden(OverridableLimit spec, PolicyOverride override) {
        try {
            return spec.overriddenBy(override);
        }
        catch (IllegalArgumentException ex) {
            if (this.refused.add(spec.limitId() + " " + spec.method() + " " + override)) {
                logger.error("Rate limit policy '" + spec.policy() + "' override " + override.describe()
                        + " does not apply to a limit resolved after it: " + ex.getMessage()
                        + "; that limit keeps its configured values");
            }
            return spec.limit();
        }
    }

    /**
     * Returns the limits that take their values from a policy, as they apply now: those resolved
     * so far, which after the application's start are those of all its singletons.
     * @param policy the policy's name
     * @return the limits, by limit id
     */
    public List<LimitDescription> limitsOf(String policy) {
        return specsOf(policy).stream()
            .map((spec) -> spec.describedAs(limitOf(spec)))
            .distinct()
            .sorted(Comparator.comparing(LimitDescription::limitId).thenComparing(LimitDescription::method))
            .toList();
    }

    private List<? extends OverridableLimit> specsOf(String policy) {
        return this.limits.using(policy);
    }

    private void log(RateLimitPolicyChangedEvent event) {
        String how = switch (event.origin()) {
            case THIS_INSTANCE -> ((event.requester() != null) ? "by '" + PrintableKeys.of(event.requester()) + "' "
                    : "") + "on this instance";
            case ANOTHER_INSTANCE -> "by another instance (read from Redis)";
            case LOST -> "lost from Redis";
        };
        String what = (event.after() == null) ? "is back to its configured values (override "
                + event.before().describe() + ((event.origin() == Origin.LOST) ? " " : " removed ") + how + ")"
                : "is overridden " + how + ": " + event.after().describe()
                        + ((event.before() != null) ? " (was " + event.before().describe() + ")" : "");
        StringBuilder limits = new StringBuilder();
        for (LimitDescription limit : event.limits()) {
            Limit now = limit.limit();
            limits.append((limits.length() > 0) ? "; " : "").append(limit.limitId()).append(": ").append(now.max())
                .append(" per ").append((now.calendar() != null) ? now.calendar() + " in " + now.zone() : now.window());
            if (now.alertAt() != 0) {
                limits.append(", alert past ").append(now.alertAt());
            }
            if (now.banFor() != null) {
                limits.append(", ban for ").append(now.banFor());
            }
        }
        logger.info("Rate limit policy '" + event.policy() + "' " + what + ". Its limits now: "
                + ((limits.length() > 0) ? limits : "none resolved yet") + ". Counts and bans in force are kept");
    }

    private static <T> @Nullable T pick(@Nullable T override, @Nullable T configured) {
        return (override != null) ? override : configured;
    }

    /**
     * The policies of an application and the limits that take their values from them: what the
     * overrides are checked against and applied to. The advisor gives its own.
     */
    public interface Limits {

        /**
         * Returns the policies, as configured.
         * @return the policies, by name
         */
        Map<String, LimitPolicy> policies();

        /**
         * Returns the limits resolved so far that take their values from a policy: after the
         * application's start, those of all its singletons.
         * @param policy the policy's name
         * @return the limits, each once
         */
        List<? extends OverridableLimit> using(String policy);

    }

    /** A limit as declared, which an override of its policy changes where it did not write a value itself. */
    public interface OverridableLimit {

        /**
         * Returns the limit's id.
         * @return the id
         */
        String limitId();

        /**
         * Returns the limited method, as descriptions name it.
         * @return the method
         */
        String method();

        /**
         * Returns the policy the limit takes its unset values from.
         * @return the policy's name, or {@code null} for none
         */
        @Nullable String policy();

        /**
         * Returns the limit as declared, before any override.
         * @return the limit
         */
        Limit limit();

        /**
         * Returns the limit with an override's values where the declaration did not write them.
         * @param override the override
         * @return the overridden limit
         * @throws IllegalArgumentException naming the limit, the field and the value, if the result
         * breaks a rule
         */
        Limit overriddenBy(PolicyOverride override);

        /**
         * Describes this limit as allowing {@code limit}.
         * @param limit the limit it allows
         * @return the description
         */
        LimitDescription describedAs(Limit limit);

    }

    /** The overrides in force, and the limits they give, computed on first use. */
    private static final class State {

        private final Map<String, PolicyOverride> overrides;

        private final Map<String, Map<String, Limit>> limits = new ConcurrentHashMap<>();

        State(Map<String, PolicyOverride> overrides) {
            this.overrides = Map.copyOf(overrides);
        }

    }

}
