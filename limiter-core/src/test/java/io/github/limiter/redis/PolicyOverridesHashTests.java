package io.github.limiter.redis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.limiter.policy.PolicyOverride;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

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
    void readsTheMarkApartFromTheOverridesAsAFieldItWrites() {
        Map<Object, Object> entries = new LinkedHashMap<>();
        entries.put("free/max", "40");
        entries.put(PolicyOverridesHash.WRITTEN, "1767225600000001:7");
        Logger logger = (Logger) LoggerFactory.getLogger(PolicyOverridesHash.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            assertThat(this.hash.parse(entries))
                .containsExactly(Map.entry("free", new PolicyOverride(40L, null, null, null)));
            // the last override removed: the mark stays, and no policy is overridden
            assertThat(this.hash.parse(Map.of(PolicyOverridesHash.WRITTEN, "1767225600000001:8"))).isEmpty();
        }
        finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list).as("the mark is not an unreadable field").isEmpty();
        assertThat(this.hash.mark(entries)).isEqualTo(new PolicyOverridesHash.Mark("1767225600000001", 7));
        assertThat(this.hash.mark(Map.of())).as("no hash").isEqualTo(PolicyOverridesHash.Mark.NONE);
    }

    @Test
    void aHashIsLostWhenItIsGoneMadeAnewOrHasFewerChanges() {
        PolicyOverridesHash.Mark read = new PolicyOverridesHash.Mark("1767225600000001", 7);
        assertThat(new PolicyOverridesHash.Mark("1767225600000001", 8).lostSince(read)).as("one change more").isFalse();
        assertThat(read.lostSince(read)).as("no change").isFalse();
        assertThat(PolicyOverridesHash.Mark.NONE.lostSince(read)).as("gone").isTrue();
        assertThat(new PolicyOverridesHash.Mark("1767225700000002", 9).lostSince(read)).as("made anew").isTrue();
        assertThat(new PolicyOverridesHash.Mark("1767225600000001", 5).lostSince(read)).as("an older copy").isTrue();
        assertThat(read.lostSince(PolicyOverridesHash.Mark.NONE)).as("nothing read before").isFalse();
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
