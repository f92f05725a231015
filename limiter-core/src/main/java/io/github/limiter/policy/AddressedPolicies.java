package io.github.limiter.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The policies by the names an override addresses: a policy of one limit by its name, and each
 * limit of a policy with several as {@code <name>.<index>}, merged over the policy's settings (the
 * name its limits' {@code policy} has, and the suffix of their limit ids).
 */
final class AddressedPolicies {

    private final Map<String, LimitPolicy> byName;

    AddressedPolicies(Map<String, LimitPolicy> policies) {
        Map<String, LimitPolicy> byName = new LinkedHashMap<>();
        for (Map.Entry<String, LimitPolicy> policy : policies.entrySet()) {
            byName.put(policy.getKey(), policy.getValue());
            for (int i = 0; i < policy.getValue().limits().size(); i++) {
                byName.put(policy.getKey() + "." + i, policy.getValue().limit(i));
            }
        }
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** Every policy by name, those with several limits included, and each of their limits. */
    Map<String, LimitPolicy> byName() {
        return this.byName;
    }

    /** The policies an override can change: all but those with several limits, whose limits it changes. */
    Map<String, LimitPolicy> addressable() {
        Map<String, LimitPolicy> addressable = new LinkedHashMap<>();
        this.byName.forEach((name, policy) -> {
            if (policy.limits().isEmpty()) {
                addressable.put(name, policy);
            }
        });
        return addressable;
    }

    /** Why a policy with several limits cannot take one override, and what can. */
    static String several(String name, LimitPolicy policy) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < policy.limits().size(); i++) {
            LimitPolicy part = policy.limit(i);
            parts.add("'" + name + "." + i + "' (max " + part.max() + " per "
                    + ((part.calendar() != null) ? part.calendar() : part.window()) + ")");
        }
        return "Policy '" + name + "' has several limits; override each of them by its own name: "
                + String.join(", ", parts);
    }

}
