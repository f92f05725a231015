package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * A policy chosen per call: {@code @RateLimit(policy = "#{#user.plan}")}. The expression names a
 * policy of {@code limiter.policies}; each policy has its limit, resolved and checked at start, and
 * its own counts.
 *
 * @param text the attribute as written, {@code #{...}}
 * @param expression the parsed expression inside {@code #{...}}
 * @param byPolicy the limit of each policy; of a policy with several limits, the one this choice
 * stands for (the first, the second...), none for a policy with fewer
 * @param policies every policy a call may choose
 * @param defaultPolicy the policy of calls whose expression names none, or {@code null} to refuse
 * them with an error
 */
record PolicyChoice(String text, KeyExpression expression, Map<String, LimitSpec> byPolicy, Set<String> policies,
        @Nullable String defaultPolicy) {

    private static final String START = "#{";

    PolicyChoice {
        byPolicy = Map.copyOf(byPolicy);
        policies = Set.copyOf(policies);
    }

    /** Whether a {@code policy} attribute chooses per call rather than naming one policy. */
    static boolean isChoice(String policy) {
        String text = policy.strip();
        return text.startsWith(START) && text.endsWith("}");
    }

    static String expression(String policy) {
        String text = policy.strip();
        return text.substring(START.length(), text.length() - 1);
    }

    /**
     * The limit of the policy a call's arguments choose, or {@code null} if that policy has fewer
     * limits than this choice stands for.
     * @throws IllegalStateException if the expression names no policy and there is no default
     */
    @Nullable LimitSpec select(String method, Method called, @Nullable Object[] args) {
        String name = this.expression.resolve(called, args);
        String chosen = (name != null && this.policies.contains(name)) ? name : this.defaultPolicy;
        if (chosen == null) {
            throw new IllegalStateException("Rate limit policy '" + this.text + "' of " + method + " chose "
                    + ((name != null) ? "'" + name + "'" : "nothing (null or blank)") + ", which is no policy; defined "
                    + "policies: " + new TreeSet<>(this.policies) + ". The call is refused; "
                    + "limiter.default-policy names a policy for such calls");
        }
        return this.byPolicy.get(chosen);
    }

}
