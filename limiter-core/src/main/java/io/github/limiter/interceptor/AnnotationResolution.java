package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

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

import org.springframework.expression.ParseException;

/**
 * One {@link RateLimit @RateLimit} being turned into a {@link LimitSpec}: its attributes merged over
 * its policy's, then checked. Knows where each value came from, so that a message names the
 * attribute or the policy property the developer wrote.
 */
final class AnnotationResolution {

    private static final LimitPolicy NO_POLICY = new LimitPolicy(null, null, null, null, null, null, null, null,
            null, null);

    private static final long UNSET = -1;

    private final RateLimit annotation;

    private final Method method;

    private final Class<?> targetClass;

    private final LimitPolicy policy;

    private final int position;

    private final KeyExpressions keyExpressions;

    private final Map<String, LimitPolicy> policies;

    // the string attributes that take ${...} placeholders, resolved
    private final String name;

    private final String window;

    private final String banFor;

    private final String zone;

    private final String policyName;

    // for a policy chosen per call: the policy of this variant, which its limit id ends with
    private final @Nullable String chosenPolicy;

    private final @Nullable String defaultPolicy;

    private final UnaryOperator<String> placeholders;

    // a request rule's properties (limiter.web.rules.<name>) and what its limit is described as; null for annotations
    private final @Nullable String rule;

    private final @Nullable String ruleDescription;

    AnnotationResolution(RateLimit annotation, Method method, Class<?> targetClass, int position,
            KeyExpressions keyExpressions, Map<String, LimitPolicy> policies, UnaryOperator<String> placeholders,
            @Nullable String defaultPolicy) {
        this(annotation, method, targetClass, position, keyExpressions, policies, placeholders, null, defaultPolicy,
                null, null);
    }

    /**
     * A request rule's limit, its attributes read from the rule's properties.
     * @param rule the rule's properties, {@code limiter.web.rules.<name>}, which messages name
     * @param description what the limit is described as, such as the paths it applies to
     */
    AnnotationResolution(RateLimit attributes, String rule, String description, KeyExpressions keyExpressions,
            Map<String, LimitPolicy> policies, @Nullable String defaultPolicy) {
        this(attributes, RequestRules.SIGNATURE, RequestRules.class, 1, keyExpressions, policies,
                UnaryOperator.identity(), null, defaultPolicy, rule, description);
    }

    private AnnotationResolution(RateLimit annotation, Method method, Class<?> targetClass, int position,
            KeyExpressions keyExpressions, Map<String, LimitPolicy> policies, UnaryOperator<String> placeholders,
            @Nullable String chosenPolicy, @Nullable String defaultPolicy, @Nullable String rule,
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
        this.defaultPolicy = defaultPolicy;
        this.name = resolve("name", annotation.name(), placeholders);
        this.window = resolve("window", annotation.window(), placeholders);
        this.banFor = resolve("banFor", annotation.banFor(), placeholders);
        this.zone = resolve("zone", annotation.zone(), placeholders);
        this.policyName = (chosenPolicy != null) ? chosenPolicy : resolve("policy", annotation.policy(), placeholders);
        this.policy = PolicyChoice.isChoice(this.policyName) ? NO_POLICY : policy();
    }

    private String resolve(String attribute, String text, UnaryOperator<String> placeholders) {
        if (!text.contains("${")) {
            return text;
        }
        String resolved;
        try {
            resolved = placeholders.apply(text);
        }
        catch (IllegalArgumentException ex) {
            throw failure(attribute, text, "has a placeholder that cannot be resolved: " + ex.getMessage(), ex);
        }
        // a lenient resolver (a context without Boot's strict one) leaves what it cannot resolve
        if (resolved == null || resolved.contains("${")) {
            throw invalid(attribute, text, "has a placeholder that cannot be resolved"
                    + ((resolved != null) ? " (resolved to '" + resolved + "')" : ""));
        }
        return resolved;
    }

    LimitSpec spec() {
        if (PolicyChoice.isChoice(this.policyName)) {
            return chosen();
        }
        String limitId = this.name.isEmpty()
                ? this.targetClass.getSimpleName() + "." + this.method.getName()
                        + ((this.position > 1) ? "-" + this.position : "")
                : this.name;
        if (this.chosenPolicy != null) {
            limitId = limitId + "." + this.chosenPolicy;
        }
        String idProblem = LimitChecks.limitIdProblem(limitId);
        if (idProblem != null) {
            throw invalid("name", limitId, idProblem);
        }
        CalendarWindow calendar = CalendarAttributes.calendar(this.annotation, this.window, this.policy,
                this::invalid);
        // what the annotation writes wins over the policy: its calendar over the policy's window, and back
        Duration window = !this.window.isBlank() ? duration(Field.WINDOW, this.window)
                : (this.annotation.calendar().length == 0) ? this.policy.window() : null;
        if (calendar != null && window != null) {
            throw invalid("calendar", calendar.name(), "excludes window (" + written(Field.WINDOW, window.toString())
                    + "): a calendar limit counts calendar periods, not windows of one length; set one of them"
                    + ((this.annotation.calendar().length == 0) ? " (both from limiter.policies." + this.policyName
                            + ")" : ""));
        }
        Long max = (this.annotation.max() != UNSET) ? Long.valueOf(this.annotation.max()) : this.policy.max();
        Long alertAt = (this.annotation.alertAt() != UNSET) ? Long.valueOf(this.annotation.alertAt())
                : this.policy.alertAt();
        Duration banFor = this.banFor.isBlank() ? this.policy.banFor()
                : duration(Field.BAN_FOR, this.banFor);
        Algorithm algorithm = algorithm();
        CalendarAttributes calendared = CalendarAttributes.resolve(calendar, algorithm, this.zone, this.policy,
                (property) -> fromPolicy(property, property.equals("algorithm") && fromAnnotation(Field.ALGORITHM)),
                (text) -> parsed("zone", text, text, this.keyExpressions::parseZone,
                        "is neither a zone id nor a valid SpEL expression: "),
                this::invalid);
        window = calendared.window(window);
        if (max == null) {
            throw invalid("max", Long.toString(this.annotation.max()),
                    "is not set; set max to the calls allowed per window (at least 1)" + inPolicy());
        }
        LimitChecks.Problem problem = LimitChecks.check(algorithm, window, max, alertAt, banFor);
        if (problem != null) {
            throw invalid(problem.field().attribute(), written(problem.field(), problem.value()),
                    problem.message() + fromPolicy(problem.field()));
        }
        Limit limit = new Limit(algorithm, max, window, (alertAt != null) ? alertAt : 0, banFor, mode(), calendar,
                calendared.zone(), burst(algorithm, window, max));
        String described = (this.ruleDescription != null) ? this.ruleDescription
                : this.targetClass.getSimpleName() + "." + this.method.getName() + "("
                        + InvalidLimits.simpleNames(SuspendFunctions.parameterTypes(this.method)) + ")";
        return new LimitSpec(limitId, key(), cost(max), limit, described, onFailure(), null,
                this.policyName.isEmpty() ? null : this.policyName, written(), calendared.expression(),
                actualCost(limit), this.annotation.condition().isBlank() ? null : parsed("condition",
                        this.annotation.condition(), this.annotation.condition(), this.keyExpressions::parseCondition,
                        "is not a valid SpEL expression: "));
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
     * A policy chosen per call, {@code policy = "#{#user.plan}"}: one limit per configured policy,
     * each checked now and counted under its own id ({@code <name>.<policy>}), so plans never share
     * a count; each call takes the one its expression names.
     */
    private LimitSpec chosen() {
        String text = this.policyName;
        String expression = PolicyChoice.expression(text);
        KeyExpression choice = parsed("policy", text, expression, this.keyExpressions::parse,
                "is not a valid SpEL expression: ");
        if (this.policies.isEmpty()) {
            throw invalid("policy", text, "chooses a policy per call, but no policy is defined (limiter.policies.<name>)");
        }
        if (this.defaultPolicy != null && !this.policies.containsKey(this.defaultPolicy)) {
            throw invalid("policy", text, "falls back to limiter.default-policy '" + this.defaultPolicy
                    + "', which is not defined; defined policies: " + new TreeSet<>(this.policies.keySet()));
        }
        Map<String, LimitSpec> byPolicy = new LinkedHashMap<>();
        for (String policyName : this.policies.keySet()) {
            byPolicy.put(policyName, new AnnotationResolution(this.annotation, this.method, this.targetClass,
                    this.position, this.keyExpressions, this.policies, this.placeholders, policyName, null, this.rule,
                    this.ruleDescription).spec());
        }
        LimitSpec first = byPolicy.values().iterator().next();
        return first.choosing(new PolicyChoice(text, choice, byPolicy, this.defaultPolicy));
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
            throw invalid(attribute, Arrays.toString(written), "names more than one " + what);
        }
        return (written.length == 1) ? written[0] : fromPolicy;
    }

    /** A token bucket's burst, or 0 for none. */
    private long burst(Algorithm algorithm, Duration window, long max) {
        Long burst = (this.annotation.burst() != UNSET) ? Long.valueOf(this.annotation.burst()) : this.policy.burst();
        LimitChecks.Problem problem = (burst != null) ? LimitChecks.burstProblem(algorithm, window, max, burst) : null;
        if (problem != null) {
            throw invalid("burst", problem.value(), problem.message() + fromPolicy(Field.BURST));
        }
        return (burst != null) ? burst : 0;
    }

    private CostExpression cost(long max) {
        String text = this.annotation.cost();
        CostExpression cost = parsed("cost", text, text, this.keyExpressions::parseCost,
                "is neither a whole number nor a valid SpEL expression: ");
        if (cost instanceof CostExpression.Literal literal && (literal.cost() < 0 || literal.cost() > max)) {
            throw invalid("cost", text, "must be from 0 to max (" + max + "): a call that takes more than max "
                    + "could never pass");
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
            throw invalid("actualCost", text, problem.message() + fromPolicy(problem.field()));
        }
        return parsed("actualCost", text, text, this.keyExpressions::parseActualCost,
                "is not a valid SpEL expression: ");
    }

    private LimitPolicy policy() {
        String name = this.policyName;
        if (name.isEmpty()) {
            return NO_POLICY;
        }
        LimitPolicy found = this.policies.get(name);
        if (found == null) {
            throw invalid("policy", name, "is not defined; defined policies: "
                    + new TreeSet<>(this.policies.keySet()) + " (limiter.policies.<name>)");
        }
        return found;
    }

    private Duration duration(Field field, String text) {
        Duration duration = LimitChecks.parseWindow(text);
        if (duration == null) {
            throw invalid(field.attribute(), text, "is not a duration; " + LimitChecks.WINDOW_FORMATS);
        }
        return duration;
    }

    private KeyExpression key() {
        String text = this.annotation.key();
        return parsed("key", text, text, this.keyExpressions::parse, "is not a valid SpEL expression: ");
    }

    /** Parses an attribute's expression and checks the variables it reads. */
    private <T> T parsed(String attribute, String value, String expression, BiFunction<String, Method, T> parser,
            String invalidSyntax) {
        T parsed;
        try {
            parsed = parser.apply(expression, this.method);
        }
        catch (ParseException ex) {
            throw failure(attribute, value, invalidSyntax + ex.getMessage(), ex);
        }
        checkVariables(attribute, value, expression);
        String unreadable = this.keyExpressions.unreadableMember(expression, this.method);
        if (unreadable != null) {
            throw invalid(attribute, value, unreadable);
        }
        return parsed;
    }

    /** A variable that names no parameter would read null on every call: fail the start instead. */
    private void checkVariables(String attribute, String value, String expression) {
        boolean afterCall = attribute.equals("actualCost");
        List<String> unknown = this.keyExpressions.unknownVariables(expression, this.method)
            .stream()
            .filter((name) -> !afterCall || !ActualCost.VARIABLES.contains(name))
            .toList();
        if (!unknown.isEmpty()) {
            String names = unknown.stream().map((name) -> "#" + name).collect(Collectors.joining(", "));
            String which = (unknown.size() == 1) ? "is" : "are";
            throw invalid(attribute, value, "reads " + names + ", which " + which + ((this.rule != null)
                    ? " not a variable of a request rule: " : " neither a parameter of the method nor a variable the "
                            + "limiter provides: ")
                    + this.keyExpressions.describeVariables(this.method) + (afterCall ? ActualCost.ALSO : ""));
        }
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
        return fromPolicy(field.property(), fromAnnotation(field));
    }

    private String fromPolicy(String property, boolean fromAnnotation) {
        return (fromAnnotation || this.policyName.isEmpty()) ? ""
                : " (from limiter.policies." + this.policyName + "." + property + ")";
    }

    private String inPolicy() {
        // "max" is the only attribute a policy may leave unset that a limit cannot do without
        return this.policyName.isEmpty() ? ""
                : ", here or in limiter.policies." + this.policyName + ".max";
    }

    private InvalidRateLimitException invalid(String attribute, String value, String problem) {
        String chosen = (this.chosenPolicy != null) ? " (under policy '" + this.chosenPolicy + "', which '"
                + this.annotation.policy() + "' can choose)" : "";
        return failure(attribute, value, problem + chosen, null);
    }

    private InvalidRateLimitException failure(String attribute, String value, String problem, @Nullable Throwable cause) {
        return (this.rule != null) ? InvalidLimits.ofRule(this.rule, attribute, value, problem, cause)
                : InvalidLimits.of(this.targetClass, this.method, attribute, value, problem, cause);
    }


}
