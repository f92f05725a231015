package io.github.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.internal.events.RecentEvents;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis layout as {@link RedisLayout} and {@link RedisKeys} declare it, against what the scripts
 * build and their headers document, and what the operations guide tells operators.
 */
class RedisLayoutTests {

    private static final String PREFIX = "<prefix>";

    @Test
    void theDecisionScriptsHeaderNamesTheKeysAsTheJavaSideBuildsThem() {
        List<String> keys = RedisKeys.of(PREFIX, "<limit-id>", "<key>", false);
        assertThat(script("decide.lua")).contains("state  " + keys.get(0), "ban    " + keys.get(1),
                "alert  " + keys.get(2), "(" + RedisLayout.SHADOW_BAN + " for a shadow limit");
        assertThat(RedisKeys.of(PREFIX, "<limit-id>", "<key>", true).get(1)).isEqualTo(keys.get(0) + ":shadow-ban");
    }

    @Test
    void theFastPathBuildsTheBanAndAlertKeysAsRedisKeysDoes() {
        assertThat(script("common.lua")).contains("return state_key .. '" + RedisLayout.BAN + "'",
                "return state_key .. '" + RedisLayout.ALERT + "'");
    }

    @Test
    void theEventAndOverrideScriptsNameTheirKeysAsTheJavaSideBuildsThem() {
        assertThat(script("record_event.lua")).contains("KEYS[1]  the limit's event list   "
                + RedisLayout.events(PREFIX, "<limit-id>"));
        assertThat(script("policy_overrides.lua")).contains("KEYS[1]  the overrides hash        "
                + RedisLayout.policyOverrides(PREFIX));
    }

    @Test
    void theOverridesScriptNamesTheHashFieldsAsTheJavaSideWritesThem() {
        List<String> fields = PolicyOverridesHash.fields("<policy>",
                new PolicyOverride(1L, Duration.ofMillis(1), null, null));
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < fields.size(); i += 2) {
            names.append((i > 0) ? "|" : "").append(fields.get(i).substring("<policy>/".length()));
        }
        assertThat(script("policy_overrides.lua")).contains("<policy>/<" + names + ">",
                "the field " + PolicyOverridesHash.WRITTEN + ": <created>:<changes>",
                "redis.call('HGET', KEYS[1], '" + PolicyOverridesHash.WRITTEN + "')",
                "redis.call('HSET', KEYS[1], '" + PolicyOverridesHash.WRITTEN + "', written)");
    }

    @Test
    void eachKindOfMessageHasAChannelOfItsOwn() {
        assertThat(RedisLayout.invalidationChannel(PREFIX)).isNotEqualTo(RedisLayout.policyChangesChannel(PREFIX));
    }

    @Test
    void theOperationsGuideNamesEveryChannel() throws IOException {
        String guide = Files.readString(Path.of("..", "docs", "operations.md"));
        assertThat(guide).contains("`" + RedisLayout.invalidationChannel("limiter:") + "`",
                "`" + RedisLayout.policyChangesChannel("limiter:") + "`");
    }

    /**
     * Version 1 of the layout, every name in it. A change here that data already in Redis, or an
     * instance of an older version, would misread needs a new {@link RedisLayout#VERSION} (and
     * this test's expectations with it).
     */
    @Test
    void theLayoutIsVersionOne() {
        assertThat(RedisLayout.VERSION).isEqualTo(1);
        assertThat(RedisKeys.of("p:", "answers", "alice", false))
            .containsExactly("p:{answers:alice}", "p:{answers:alice}:ban", "p:{answers:alice}:alert");
        assertThat(RedisKeys.state("p:", "answers", "")).isEqualTo("p:{answers}");
        assertThat(RedisLayout.events("p:", "answers")).isEqualTo("p:events:{answers}");
        assertThat(RedisLayout.policyOverrides("p:")).isEqualTo("p:policy-overrides");
        assertThat(PolicyOverridesHash.WRITTEN).isEqualTo("~written");
        assertThat(RedisLayout.invalidationChannel("p:")).isEqualTo("p:local-refusals");
        assertThat(RedisLayout.policyChangesChannel("p:")).isEqualTo("p:policy-changes");
        assertThat(RecentEvents.RECORD_VERSION).isEqualTo("1");
    }

    private static String script(String name) {
        try (InputStream in = RedisLayoutTests.class.getClassLoader()
            .getResourceAsStream("META-INF/limiter/scripts/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

}
