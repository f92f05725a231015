package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.LimitChecks;
import io.github.limiter.LimitChecks.Field;
import io.github.limiter.OnFailure;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import org.jspecify.annotations.Nullable;

/**
 * One {@link RateLimit @RateLimit} being turned into its {@link LimitSpec}s: its attributes merged
 * over its policy's, then checked; one spec, or one per limit of a policy with several. Knows where
 * each value came from ({@link AttributeSources}), so that a message names the attribute or the
 * policy property the developer wrote.
 */
final class AnnotationResolution {

    private static final LimitPolicy NO_POLICY = new LimitPolicy(null, null, null, null, null, null, null, null,
            null, null);

    private static final long UNSET = -1;

    private final RateLimit annotation;

    private final Method method;

    private final Class<?> targetClass;

    // the policy the limit takes its unset values from; for one of a policy's several limits, that limit merged
    private final LimitPolicy policy;

    private final int position;

    private final KeyExpressions keyExpressions;

    private final Map<String, LimitPolicy> policies;

    // the string attributes that take ${...} placeholders, resolved
    private final String name;

    private final String window;

    private final String banFor;

    private final String zone;

    private final String maxWait;

    private final String policyName;

    // for a policy chosen per call: the policy of this variant, which its limit id ends with
    private final @Nullable String chosenPolicy;

    // for one of a policy's several limits: its index, which its limit id ends with; else -1
    private final int part;

    private final @Nullable String defaultPolicy;

    private final UnaryOperator<String> placeholders;

    // a request rule's properties (limiter.web.rules.<name>) and what its limit is described as; null for annotations
    private final @Nullable String rule;

    private final @Nullable String ruleDescription;

    private final AttributeSources sources;

    private final AttributeExpressions expressions;

    AnnotationResolution(RateLimit annotation, Method method, Class<?> targetClass, int position,
            KeyExpressions keyExpressions, Map<String, LimitPolicy> policies, UnaryOperator<String> placeholders,
            @Nullable String defaultPolicy) {
        this(annotation, method, targetClass, position, keyExpressions, policies, placeholders, null, -1,
                defaultPolicy, null, null);
    }

    /**
     * A request rule's limit, its attributes read from the rule's properties.
     * @param rule the rule's properties, {@code limiter.web.rules.<name>}, which messages name
     * @param description what the limit is described as, such as the paths it applies to
     */
    AnnotationResolution(RateLimit attributes, String rule, String description, KeyExpressions keyExpressions,
            Map<String, LimitPolicy> policies, @Nullable String defaultPolicy) {
        this(attributes, RequestRules.SIGNATURE, RequestRules.class, 1, keyExpressions, policies,
                UnaryOperator.identity(), null, -1, defaultPolicy, rule, description);
    }

    private AnnotationResolution(RateLimit annotation, Method method, Class<?> targetClass, int position,
            KeyExpressions keyExpressions, Map<String, LimitPolicy> policies, UnaryOperator<String> placeholders,
            @Nullable String chosenPolicy, int part, @Nullable String defaultPolicy, @Nullable String rule,
            @Nullable String ruleDescription) {
        this.rule = rule;
        this.ruleDescription = ruleDescription;
        this.keyExpressions = keyExpressions;
        this.policies = policies;
        this.annotation = annotation;
        this.method = method;
        this.targetClass = targetClass;
        this.position = position;
        this.placeholders = placeholders;
        this.chosenPolicy = chosenPolicy;
        this.part = part;
        this.defaultPolicy = defaultPolicy;
        String chosenBy = (chosenPolicy != null) ? annotation.policy() : null;
        AttributeSources written = new AttributeSources(targetClass, method, rule,
                (chosenPolicy != null) ? chosenPolicy : "", chosenBy, -1, null);
        this.name = written.resolve("name", annotation.name(), placeholders);
        this.window = written.resolve("window", annotation.window(), placeholders);
        this.banFor = written.resolve("banFor", annotation.banFor(), placeholders);
        this.zone = written.resolve("zone", annotation.zone(), placeholders);
        this.maxWait = written.resolve("maxWait", annotation.maxWait(), placeholders);
        this.policyName = (chosenPolicy != null) ? chosenPolicy
                : written.resolve("policy", annotation.policy(), placeholders);
        LimitPolicy whole = PolicyChoice.isChoice(this.policyName) ? NO_POLICY : policy(written);
        this.policy = (part >= 0) ? whole.limit(part) : whole;
        this.sources = new AttributeSources(targetClass, method, rule, this.policyName, chosenBy, part,
                (part >= 0) ? whole.limits().get(part) : null);
        this.expressions = new AttributeExpressions(keyExpressions, method, this.sources);
    }

    /**
     * The limits the annotation declares: one, one per limit of a policy with several, or, for a
     * policy chosen per call, one per limit the chosen policies have at most.
     */
    List<LimitSpec> specs() {
        if (PolicyChoice.isChoice(this.policyName)) {
            return chosen();
        }
        if (this.part >= 0 || this.policy.limits().isEmpty()) {
            return List.of(spec());
        }
        for (Field field : Field.values()) {
            if (fromAnnotation(field) || (field == Field.WINDOW && this.annotation.calendar().length > 0)) {
                throw this.sources.invalid("policy", this.policyName, "has several limits (limiter.policies."
                        + this.policyName + ".limits), so " + field.attribute() + " cannot be written beside it: "
                        + "set it on each of them there");
            }
        }
        List<LimitSpec> specs = new ArrayList<>(this.policy.limits().size());
        for (int i = 0; i < this.policy.limits().size(); i++) {
            specs.add(new AnnotationResolution(this.annotation, this.method, this.targetClass, this.position,
                    this.keyExpressions, this.policies, this.placeholders, this.chosenPolicy, i, this.defaultPolicy,
                    this.rule, this.ruleDescription).spec());
        }
        return specs;
    }

    private LimitSpec spec() {
        String limitId = this.name.isEmpty()
                ? this.targetClass.getSimpleName() + "." + this.method.getName()
                        + ((this.position > 1) ? "-" + this.position : "")
                : this.name;
        if (this.chosenPolicy != null) {
            limitId = limitId + "." + this.chosenPolicy;
        }
        if (this.part >= 0) {
            limitId = limitId + "." + this.part;
        }
        String idProblem = LimitChecks.limitIdProblem(limitId);
        if (idProblem != null) {
            throw this.sources.invalid("name", limitId, idProblem);
        }
        CalendarWindow calendar = CalendarAttributes.calendar(this.annotation, this.window, this.policy,
                this.sources::invalid);
        // what the annotation writes wins over the policy: its calendar over the policy's window, and back
        Duration window = !this.window.isBlank() ? duration("window", this.window)
                : (this.annotation.calendar().length == 0) ? this.policy.window() : null;
        if (calendar != null && window != null) {
            throw this.sources.invalid("calendar", calendar.name(), "excludes window ("
                    + written(Field.WINDOW, window.toString()) + "): a calendar limit counts calendar periods, "
                    + "not windows of one length; set one of them" + ((this.annotation.calendar().length == 0)
                            ? " (both from limiter.policies." + this.policyName + ")" : ""));
        }
        Long max = (this.annotation.max() != UNSET) ? Long.valueOf(this.annotation.max()) : this.policy.max();
        Long alertAt = (this.annotation.alertAt() != UNSET) ? Long.valueOf(this.annotation.alertAt())
                : this.policy.alertAt();
        Duration banFor = this.banFor.isBlank() ? this.policy.banFor() : duration("banFor", this.banFor);
        Algorithm algorithm = algorithm();
        CalendarAttributes calendared = CalendarAttributes.resolve(calendar, algorithm, this.zone, this.policy,
                (property) -> this.sources.fromPolicy(property,
                        property.equals("algorithm") && fromAnnotation(Field.ALGORITHM)),
                (text) -> this.expressions.parsed("zone", text, text, this.keyExpressions::parseZone,
                        "is neither a zone id nor a valid SpEL expression: "),
                this.sources::invalid);
        window = calendared.window(window);
        if (max == null) {
            throw this.sources.invalid("max", Long.toString(this.annotation.max()),
                    "is not set; set max to the calls allowed per window (at least 1)" + this.sources.inPolicy());
        }
        LimitChecks.Problem problem = LimitChecks.check(algorithm, window, max, alertAt, banFor);
        if (problem != null) {
            throw this.sources.invalid(problem.field().attribute(), written(problem.field(), problem.value()),
                    problem.message() + fromPolicy(problem.field()));
        }
        Limit limit = new Limit(algorithm, max, window, (alertAt != null) ? alertAt : 0, banFor, mode(), calendar,
                calendared.zone(), burst(algorithm, window, max));
        String described = (this.ruleDescription != null) ? this.ruleDescription
                : this.targetClass.getSimpleName() + "." + this.method.getName() + "("
                        + InvalidLimits.simpleNames(SuspendFunctions.parameterTypes(this.method)) + ")";
        return new LimitSpec(limitId, key(), cost(max), limit, described, onFailure(), null,
                this.policyName.isEmpty() ? null : this.policyName + ((this.part >= 0) ? "." + this.part : ""),
                written(), calendared.expression(), actualCost(limit), this.annotation.condition().isBlank() ? null
                        : this.expressions.parsed("condition", this.annotation.condition(), this.annotation.condition(),
                                this.keyExpressions::parseCondition, "is not a valid SpEL expression: "),
                maxWait());
    }

    /** The fields the annotation writes itself: a policy override leaves them as written. */
    private Set<Field> written() {
        Set<Field> written = EnumSet.noneOf(Field.class);
        for (Field field : Field.values()) {
            if (fromAnnotation(field)) {
                written.add(field);
            }
        }
        return written;
    }

    private boolean fromAnnotation(Field field) {
        return switch (field) {
            case ALGORITHM -> this.annotation.algorithm().length > 0;
            case WINDOW -> !this.window.isBlank();
            case MAX -> this.annotation.max() != UNSET;
            case ALERT_AT -> this.annotation.alertAt() != UNSET;
            case BAN_FOR -> !this.banFor.isBlank();
            case BURST -> this.annotation.burst() != UNSET;
        };
    }

    /**
     * A policy chosen per call, {@code policy = "#{#user.plan}"}: one limit per configured policy
     * (per limit of a policy with several), each checked now and counted under its own id
     * ({@code <name>.<policy>}), so plans never share a count; each call takes those its expression
     * names. A policy with fewer limits than another leaves the other's last ones out of its calls.
     */
    private List<LimitSpec> chosen() {
        String text = this.policyName;
        String expression = PolicyChoice.expression(text);
        KeyExpression choice = this.expressions.parsed("policy", text, expression, this.keyExpressions::parse,
                "is not a valid SpEL expression: ");
        if (this.policies.isEmpty()) {
            throw this.sources.invalid("policy", text,
                    "chooses a policy per call, but no policy is defined (limiter.policies.<name>)");
        }
        if (this.defaultPolicy != null && !this.policies.containsKey(this.defaultPolicy)) {
            throw this.sources.invalid("policy", text, "falls back to limiter.default-policy '" + this.defaultPolicy
                    + "', which is not defined; defined policies: " + new TreeSet<>(this.policies.keySet()));
        }
        Map<String, List<LimitSpec>> byPolicy = new LinkedHashMap<>();
        int slots = 0;
        for (String policyName : this.policies.keySet()) {
            List<LimitSpec> specs = new AnnotationResolution(this.annotation, this.method, this.targetClass,
                    this.position, this.keyExpressions, this.policies, this.placeholders, policyName, -1, null,
                    this.rule, this.ruleDescription).specs();
            byPolicy.put(policyName, specs);
            slots = Math.max(slots, specs.size());
        }
        List<LimitSpec> chosen = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            Map<String, LimitSpec> inSlot = new LinkedHashMap<>();
            for (Map.Entry<String, List<LimitSpec>> specs : byPolicy.entrySet()) {
                if (slot < specs.getValue().size()) {
                    inSlot.put(specs.getKey(), specs.getValue().get(slot));
                }
            }
            LimitSpec first = inSlot.values().iterator().next();
            chosen.add(first.choosing(new PolicyChoice(text, choice, inSlot, this.policies.keySet(),
                    this.defaultPolicy)));
        }
        return chosen;
    }

    private @Nullable OnFailure onFailure() {
        return single("onFailure", this.annotation.onFailure(), this.policy.onFailure(), "choice");
    }

    private Algorithm algorithm() {
        Algorithm algorithm = single("algorithm", this.annotation.algorithm(), this.policy.algorithm(), "algorithm");
        return (algorithm != null) ? algorithm : Algorithm.FIXED_WINDOW;
    }

    private Limit.Mode mode() {
        Limit.Mode mode = single("mode", this.annotation.mode(), this.policy.mode(), "mode");
        return (mode != null) ? mode : Limit.Mode.ENFORCE;
    }

    /** The one value an array attribute names, else the policy's; an annotation names at most one. */
    private <T> @Nullable T single(String attribute, T[] written, @Nullable T fromPolicy, String what) {
        if (written.length > 1) {
            throw this.sources.invalid(attribute, Arrays.toString(written), "names more than one " + what);
        }
        return (written.length == 1) ? written[0] : fromPolicy;
    }

    /** A token bucket's burst, or 0 for none. */
    private long burst(Algorithm algorithm, Duration window, long max) {
        Long burst = (this.annotation.burst() != UNSET) ? Long.valueOf(this.annotation.burst()) : this.policy.burst();
        LimitChecks.Problem problem = (burst != null) ? LimitChecks.burstProblem(algorithm, window, max, burst) : null;
        if (problem != null) {
            throw this.sources.invalid("burst", problem.value(), problem.message() + fromPolicy(Field.BURST));
        }
        return (burst != null) ? burst : 0;
    }

    /** How long a call over the limit may wait for room, or {@code null} for not at all. */
    private @Nullable Duration maxWait() {
        boolean written = !this.maxWait.isBlank();
        Duration maxWait = written ? duration("maxWait", this.maxWait) : this.policy.maxWait();
        if (maxWait != null && maxWait.isNegative()) {
            throw this.sources.invalid("maxWait", written ? this.maxWait : maxWait.toString(), "is negative; a call "
                    + "waits from 0 (not at all) up to maxWait" + this.sources.fromPolicy("max-wait", written));
        }
        return (maxWait == null || maxWait.isZero()) ? null : maxWait;
    }

    private CostExpression cost(long max) {
        String text = this.annotation.cost();
        CostExpression cost = this.expressions.parsed("cost", text, text, this.keyExpressions::parseCost,
                "is neither a whole number nor a valid SpEL expression: ");
        if (cost instanceof CostExpression.Literal literal && (literal.cost() < 0 || literal.cost() > max)) {
            throw this.sources.invalid("cost", text, "must be from 0 to max (" + max + "): a call that takes more "
                    + "than max could never pass");
        }
        return cost;
    }

    /** The expression of the call's actual cost, or {@code null}; refused where it cannot settle exactly. */
    private @Nullable ActualCost actualCost(Limit limit) {
        String text = this.annotation.actualCost();
        if (text.isBlank()) {
            return null;
        }
        ActualCost.Problem problem = ActualCost.problem(limit);
        if (problem != null) {
            throw this.sources.invalid("actualCost", text, problem.message() + fromPolicy(problem.field()));
        }
        return this.expressions.parsed("actualCost", text, text, this.keyExpressions::parseActualCost,
                "is not a valid SpEL expression: ");
    }

    private LimitPolicy policy(AttributeSources written) {
        String name = this.policyName;
        if (name.isEmpty()) {
            return NO_POLICY;
        }
        LimitPolicy found = this.policies.get(name);
        if (found == null) {
            throw written.invalid("policy", name, "is not defined; defined policies: "
                    + new TreeSet<>(this.policies.keySet()) + " (limiter.policies.<name>)");
        }
        return found;
    }

    private Duration duration(String attribute, String text) {
        Duration duration = LimitChecks.parseWindow(text);
        if (duration == null) {
            throw this.sources.invalid(attribute, text, "is not a duration; " + LimitChecks.WINDOW_FORMATS);
        }
        return duration;
    }

    private KeyExpression key() {
        String text = this.annotation.key();
        return this.expressions.parsed("key", text, text, this.keyExpressions::parse,
                "is not a valid SpEL expression: ");
    }

    /** The value as the developer wrote it on the annotation, else as the policy has it. */
    private String written(Field field, String fallback) {
        return switch (field) {
            case WINDOW -> this.window.isBlank() ? fallback : this.window;
            case BAN_FOR -> this.banFor.isBlank() ? fallback : this.banFor;
            default -> fallback;
        };
    }

    private String fromPolicy(Field field) {
        return this.sources.fromPolicy(field.property(), fromAnnotation(field));
    }

}
