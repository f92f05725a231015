package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.function.UnaryOperator;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.policy.LimitPolicy;
import org.jspecify.annotations.Nullable;

/**
 * Where the values of one limit being resolved were written: on an annotation, in a request rule's
 * properties, in a policy, or in one of a policy's several limits. Makes the start-up failure that
 * names the attribute or the property to correct.
 *
 * @param targetClass the class whose method has the annotation
 * @param method the method; a request rule's signature for a rule
 * @param rule a request rule's properties ({@code limiter.web.rules.<name>}), or {@code null} for an
 * annotation
 * @param policyName the policy the limit takes its unset values from, or the empty string
 * @param chosen the policy attribute that chose {@code policyName} per call, or {@code null}
 * @param part the index of the limit among its policy's several limits, or -1
 * @param partPolicy that limit as configured, before it takes the policy's values, or {@code null}
 */
record AttributeSources(Class<?> targetClass, Method method, @Nullable String rule, String policyName,
        @Nullable String chosen, int part, @Nullable LimitPolicy partPolicy) {

    /** Resolves the {@code ${...}} placeholders of an attribute, refusing what cannot be resolved. */
    String resolve(String attribute, String text, UnaryOperator<String> placeholders) {
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

    /**
     * What a message adds about a value taken from the policy: the property it was read from, or
     * nothing for a value the annotation wrote.
     * @param property the property, as a policy writes it ({@code alert-at})
     */
    String fromPolicy(String property, boolean fromAnnotation) {
        return (fromAnnotation || this.policyName.isEmpty()) ? ""
                : " (from limiter.policies." + this.policyName + "." + inPart(property) + ")";
    }

    /** Where the policy holds a property: in the limit of its several that sets it, else in itself. */
    private String inPart(String property) {
        return (this.partPolicy != null && sets(this.partPolicy, property))
                ? "limits[" + this.part + "]." + property : property;
    }

    private static boolean sets(LimitPolicy policy, String property) {
        Object value = switch (property) {
            case "algorithm" -> policy.algorithm();
            case "window" -> policy.window();
            case "max" -> policy.max();
            case "alert-at" -> policy.alertAt();
            case "ban-for" -> policy.banFor();
            case "burst" -> policy.burst();
            case "max-wait" -> policy.maxWait();
            case "zone" -> policy.zone();
            case "calendar" -> policy.calendar();
            default -> null;
        };
        return value != null;
    }

    /** Where a policy may set {@code max}, which a limit cannot do without. */
    String inPolicy() {
        return this.policyName.isEmpty() ? ""
                : ", here or in limiter.policies." + this.policyName + "." + inPart("max");
    }

    InvalidRateLimitException invalid(String attribute, String value, String problem) {
        String under = (this.chosen != null) ? " (under policy '" + this.policyName + "', which '" + this.chosen
                + "' can choose)" : "";
        return failure(attribute, value, problem + under, null);
    }

    InvalidRateLimitException failure(String attribute, String value, String problem, @Nullable Throwable cause) {
        return (this.rule != null) ? InvalidLimits.ofRule(this.rule, attribute, value, problem, cause)
                : InvalidLimits.of(this.targetClass, this.method, attribute, value, problem, cause);
    }

}
