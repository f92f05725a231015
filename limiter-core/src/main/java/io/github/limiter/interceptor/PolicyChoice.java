package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * A policy chosen per call: {@code @RateLimit(policy = "#{#user.plan}")}. The expression names a
 * policy of {@code limiter.policies}; each policy has its limit, resolved and checked at start, and
 * its own counts.
 *
 * @param text the attribute as written, {@code #{...}}
 * @param expression the parsed expression inside {@code #{...}}
 * @param byPolicy the limit of each policy
 * @param defaultPolicy the policy of calls whose expression names none, or {@code null} to refuse
 * them with an error
 */
record PolicyChoice(String text, KeyExpression expression, Map<String, LimitSpec> byPolicy,
        @Nullable String defaultPolicy) {

    private static final String START = "#{";

    PolicyChoice {
        byPolicy = Map.copyOf(byPolicy);
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
     * The limit of the policy a call's arguments choose.
     * @throws IllegalStateException if the expression names no policy and there is no default
     */
    LimitSpec select(String method, Method called, @Nullable Object[] args) {
        String name = this.expression.resolve(called, args);
        LimitSpec chosen = (name != null) ? this.byPolicy.get(name) : null;
        if (chosen == null && this.defaultPolicy != null) {
            chosen = this.byPolicy.get(this.defaultPolicy);
        }
        if (chosen == null) {
            throw new IllegalStateException("Rate limit policy '" + this.text + "' of " + method + " chose "
                    + ((name != null) ? "'" + name + "'" : "nothing (null or blank)") + ", which is no policy; defined "
                    + "policies: " + new TreeSet<>(this.byPolicy.keySet()) + ". The call is refused; "
                    + "limiter.default-policy names a policy for such calls");
        }
        return chosen;
    }

}
