package io.github.limiter.autoconfigure.web;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.autoconfigure.LimiterWebProperties;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.interceptor.RequestRules;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * The rules of {@code limiter.web.rules}, checked and resolved at start, and matched to requests
 * by path and method. Split by stage: the rules whose expressions read {@code #principal} apply
 * once Spring Security authenticated the request, the others before it sees the request.
 */
final class UrlRules {

    private static final String PRINCIPAL = "principal";

    private final List<UrlRule> rules;

    private final @Nullable RequestRules requestRules;

    private UrlRules(List<UrlRule> rules, @Nullable RequestRules requestRules) {
        this.rules = rules;
        this.requestRules = requestRules;
    }

    /**
     * Checks and resolves {@code limiter.web.rules}, with the advisor's request rules if the
     * application has an advisor: the same for Spring MVC and WebFlux.
     */
    static UrlRules configured(LimiterProperties properties, ObjectProvider<RateLimitAdvisor> advisor) {
        return of(properties.getWeb().getRules(), () -> {
            RateLimitAdvisor found = advisor.getIfAvailable();
            return (found != null) ? found.requestRules() : null;
        });
    }

    /**
     * Checks and resolves the configured rules.
     * @param requestRules what resolves and decides them, asked for only if there are rules; {@code null}
     * if the application has no rate limiter
     * @throws InvalidRateLimitException naming the rule's property and value, if a rule is invalid
     */
    static UrlRules of(Map<String, LimiterWebProperties.Rule> configured,
            Supplier<@Nullable RequestRules> requestRules) {
        if (configured.isEmpty()) {
            return new UrlRules(List.of(), null);
        }
        RequestRules resolver = requestRules.get();
        if (resolver == null) {
            throw new IllegalStateException("limiter.web.rules " + configured.keySet() + " are configured, but the "
                    + "application has no rate limiter to decide them: no RateLimiter bean, which the starter creates "
                    + "where Spring Data Redis has a connection factory");
        }
        List<UrlRule> rules = new ArrayList<>(configured.size());
        configured.forEach((name, rule) -> rules.add(resolve(name, rule, resolver)));
        return new UrlRules(List.copyOf(rules), resolver);
    }

    private static UrlRule resolve(String name, LimiterWebProperties.Rule rule, RequestRules requestRules) {
        String properties = "limiter.web.rules." + name;
        if (rule.getPaths().isEmpty()) {
            throw invalid(properties, "paths", "", "is required: the path patterns of the requests the rule limits, "
                    + "such as /login or /api/**");
        }
        List<PathPattern> patterns = new ArrayList<>(rule.getPaths().size());
        for (String path : rule.getPaths()) {
            try {
                patterns.add(PathPatternParser.defaultInstance.parse(path));
            }
            catch (PatternParseException ex) {
                throw new InvalidRateLimitException("Invalid rate-limit rule: " + properties + ".paths = '" + path
                        + "' is not a path pattern: " + ex.toDetailedString(), "paths", path, ex);
            }
        }
        Set<HttpMethod> methods = new LinkedHashSet<>();
        for (String method : rule.getMethods()) {
            HttpMethod known = Arrays.stream(HttpMethod.values())
                .filter((candidate) -> candidate.name().equalsIgnoreCase(method.trim()))
                .findFirst()
                .orElseThrow(() -> invalid(properties, "methods", method, "is not an HTTP method; use "
                        + Arrays.toString(HttpMethod.values())));
            methods.add(known);
        }
        if (!rule.getLimits().isEmpty()) {
            throw invalid(properties, "limits", "[" + rule.getLimits().size() + " limits]", "is a policy's: list the "
                    + "limits in limiter.policies.<name>.limits and set this rule's policy to <name>");
        }
        if (!rule.getPolicy().isBlank()) {
            String inline = inline(rule);
            if (inline != null) {
                throw invalid(properties, "policy", rule.getPolicy(), "excludes " + inline + ": a rule's limit is "
                        + "either a policy or written inline; set one of them");
            }
        }
        String description = (methods.isEmpty() ? "" : String.join(",", methods.stream().map(HttpMethod::name)
            .toList()) + " ") + String.join(", ", rule.getPaths());
        RequestRules.Rule resolved = requestRules.rule(properties, attributes(name, rule), description,
                rule.getBlankKey());
        return new UrlRule(resolved, List.copyOf(patterns), Set.copyOf(methods), resolved.reads(PRINCIPAL));
    }

    /** The first limit value written inline, for the message of a rule that also names a policy. */
    private static @Nullable String inline(LimiterWebProperties.Rule rule) {
        Map<String, @Nullable Object> inline = new LinkedHashMap<>();
        inline.put("window", rule.getWindow());
        inline.put("max", rule.getMax());
        inline.put("alert-at", rule.getAlertAt());
        inline.put("ban-for", rule.getBanFor());
        inline.put("algorithm", rule.getAlgorithm());
        inline.put("calendar", rule.getCalendar());
        inline.put("mode", rule.getMode());
        inline.put("on-failure", rule.getOnFailure());
        inline.put("zone", rule.getZone());
        inline.put("burst", rule.getBurst());
        inline.put("max-wait", rule.getMaxWait());
        return inline.entrySet().stream().filter((value) -> value.getValue() != null).map(Map.Entry::getKey)
            .findFirst().orElse(null);
    }

    /** The rule as the annotation it stands for: its values, the annotation's defaults for the rest. */
    private static RateLimit attributes(String name, LimiterWebProperties.Rule rule) {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("name", name);
        attributes.put("key", rule.getKey());
        attributes.put("policy", rule.getPolicy());
        attributes.put("cost", rule.getCost());
        attributes.put("condition", rule.getCondition());
        if (rule.getWindow() != null) {
            attributes.put("window", rule.getWindow().toString());
        }
        if (rule.getMax() != null) {
            attributes.put("max", rule.getMax());
        }
        if (rule.getAlertAt() != null) {
            attributes.put("alertAt", rule.getAlertAt());
        }
        if (rule.getBanFor() != null) {
            attributes.put("banFor", rule.getBanFor().toString());
        }
        if (rule.getAlgorithm() != null) {
            attributes.put("algorithm", new Algorithm[] { rule.getAlgorithm() });
        }
        if (rule.getMode() != null) {
            attributes.put("mode", new Limit.Mode[] { rule.getMode() });
        }
        if (rule.getOnFailure() != null) {
            attributes.put("onFailure", new OnFailure[] { rule.getOnFailure() });
        }
        if (rule.getCalendar() != null) {
            attributes.put("calendar", new CalendarWindow[] { rule.getCalendar() });
        }
        if (rule.getZone() != null) {
            attributes.put("zone", rule.getZone());
        }
        if (rule.getBurst() != null) {
            attributes.put("burst", rule.getBurst());
        }
        if (rule.getMaxWait() != null) {
            attributes.put("maxWait", rule.getMaxWait().toString());
        }
        return MergedAnnotation.of(RateLimit.class, attributes).synthesize();
    }

    private static InvalidRateLimitException invalid(String properties, String property, String value,
            String problem) {
        return new InvalidRateLimitException("Invalid rate-limit rule: " + properties + "." + property + " = '" + value
                + "' " + problem, property, value, null);
    }

    /** The rules of one stage: after authentication, or before it. */
    UrlRules stage(boolean authenticated) {
        return new UrlRules(this.rules.stream().filter((rule) -> rule.authenticated == authenticated).toList(),
                this.requestRules);
    }

    /** What decides the rules' requests; only called where there are rules. */
    RequestRules requestRules() {
        if (this.requestRules == null) {
            throw new IllegalStateException("No rules to decide");
        }
        return this.requestRules;
    }

    boolean isEmpty() {
        return this.rules.isEmpty();
    }

    /**
     * The rules that apply to a request, in the order configured: empty for most requests.
     * @param path the path within the application
     * @param method the request's method
     */
    List<RequestRules.Rule> matching(PathContainer path, HttpMethod method) {
        List<RequestRules.Rule> matching = null;
        for (UrlRule rule : this.rules) {
            if (rule.matches(path, method)) {
                if (matching == null) {
                    matching = new ArrayList<>(2);
                }
                matching.add(rule.rule);
            }
        }
        return (matching != null) ? matching : List.of();
    }

    /** Whether a rule reads a variable, such as {@code params}. */
    static boolean anyReads(List<RequestRules.Rule> rules, String variable) {
        for (RequestRules.Rule rule : rules) {
            if (rule.reads(variable)) {
                return true;
            }
        }
        return false;
    }

    private record UrlRule(RequestRules.Rule rule, List<PathPattern> patterns, Set<HttpMethod> methods,
            boolean authenticated) {

        boolean matches(PathContainer path, HttpMethod method) {
            if (!this.methods.isEmpty() && !this.methods.contains(method)) {
                return false;
            }
            for (PathPattern pattern : this.patterns) {
                if (pattern.matches(path)) {
                    return true;
                }
            }
            return false;
        }

    }

}
