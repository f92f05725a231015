package io.github.limiter.redis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.annotation.PolicyOverride;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policy overrides' hash, as {@code policy_overrides.lua} writes it and every instance reads it.
 */
class PolicyOverridesHashTests {

    private final PolicyOverridesHash hash = new PolicyOverridesHash("p:policy-overrides");

    @Test
    void writesAFieldPerPolicyAndValueInMillisecondsAndEmptyForNone() {
        assertThat(PolicyOverridesHash.fields("free", new PolicyOverride(40L, Duration.ofMinutes(2), null, null)))
            .containsExactly("free/max", "40", "free/window", "120000", "free/alert-at", "", "free/ban-for", "");
    }

    @Test
    void readsWhatItWrites() {
        PolicyOverride override = new PolicyOverride(40L, Duration.ofMinutes(2), 30L, Duration.ofMinutes(15));
        List<String> fields = PolicyOverridesHash.fields("gold", override);
        Map<Object, Object> entries = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i += 2) {
            entries.put(fields.get(i), fields.get(i + 1));
        }
        assertThat(this.hash.parse(entries)).containsExactly(Map.entry("gold", override));
    }

    @Test
    void ignoresFieldsItDoesNotWriteAndKeepsTheRest() {
        Map<Object, Object> entries = new LinkedHashMap<>();
        entries.put("free/max", "40");
        entries.put("free/colour", "blue");
        entries.put("free/window", "soon");
        entries.put("no-separator", "1");
        entries.put("empty/window", "not a number");
        assertThat(this.hash.parse(entries))
            .containsExactly(Map.entry("free", new PolicyOverride(40L, null, null, null)));
    }

}
