package io.github.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.limiter.LimitChecks.Field;
import io.github.limiter.policy.PolicyOverride;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The layout of the policy overrides' hash ({@link RedisLayout#policyOverrides}): a field per policy
 * and value, {@code <policy>/<max|window|alert-at|ban-for>}, holding a whole number (windows and
 * bans in milliseconds); an empty value removes the field ({@code policy_overrides.lua}). Beside
 * them, {@value #WRITTEN} marks the hash (its {@link Mark}), so that no change empties it. A field
 * this version does not write is logged once, at ERROR, and ignored.
 */
final class PolicyOverridesHash {

    private static final Log logger = LogFactory.getLog(PolicyOverridesHash.class);

    /** The field that holds the hash's {@link Mark}, {@code <created>:<changes>}. */
    static final String WRITTEN = "~written";

    private static final char SEPARATOR = '/';

    private static final List<Field> FIELDS = List.of(Field.MAX, Field.WINDOW, Field.ALERT_AT, Field.BAN_FOR);

    private final String key;

    // unreadable fields are logged once each, not at every read
    private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

    PolicyOverridesHash(String key) {
        this.key = key;
    }

    /** The field and value pairs that set a policy's override; an empty value removes its field. */
    static List<String> fields(String policy, PolicyOverride override) {
        List<String> fields = new ArrayList<>(8);
        put(fields, policy, Field.MAX, (override.max() != null) ? override.max().toString() : "");
        put(fields, policy, Field.WINDOW, (override.window() != null) ? Long.toString(override.window().toMillis()) : "");
        put(fields, policy, Field.ALERT_AT, (override.alertAt() != null) ? override.alertAt().toString() : "");
        put(fields, policy, Field.BAN_FOR, (override.banFor() != null) ? Long.toString(override.banFor().toMillis()) : "");
        return fields;
    }

    /** The mark of a hash; {@link Mark#NONE} where there is no hash, or no readable mark. */
    Mark mark(Map<Object, Object> entries) {
        Object written = entries.get(WRITTEN);
        if (written == null) {
            return Mark.NONE;
        }
        String text = written.toString();
        int at = text.indexOf(':');
        try {
            return new Mark(text.substring(0, at), Long.parseLong(text.substring(at + 1)));
        }
        catch (RuntimeException ex) {
            unreadable(WRITTEN, text);
            return Mark.NONE;
        }
    }

    /** The overrides a hash holds, by policy name; a policy with no readable value has none. */
    Map<String, PolicyOverride> parse(Map<Object, Object> entries) {
        Map<String, Map<Field, String>> byPolicy = new LinkedHashMap<>();
        entries.forEach((name, value) -> {
            String field = name.toString();
            if (field.equals(WRITTEN)) {
                return;
            }
            int at = field.lastIndexOf(SEPARATOR);
            Field which = (at > 0) ? field(field.substring(at + 1)) : null;
            if (which == null) {
                unreadable(field, value.toString());
                return;
            }
            byPolicy.computeIfAbsent(field.substring(0, at), (policy) -> new HashMap<>()).put(which, value.toString());
        });
        Map<String, PolicyOverride> overrides = new LinkedHashMap<>();
        byPolicy.forEach((policy, values) -> {
            PolicyOverride override = new PolicyOverride(number(policy, Field.MAX, values),
                    millis(policy, Field.WINDOW, values), number(policy, Field.ALERT_AT, values),
                    millis(policy, Field.BAN_FOR, values));
            if (!override.isEmpty()) {
                overrides.put(policy, override);
            }
        });
        return overrides;
    }

    private @Nullable Long number(String policy, Field field, Map<Field, String> values) {
        String value = values.get(field);
        if (value == null) {
            return null;
        }
        try {
            return Long.valueOf(value);
        }
        catch (NumberFormatException ex) {
            unreadable(policy + SEPARATOR + field.property(), value);
            return null;
        }
    }

    private @Nullable Duration millis(String policy, Field field, Map<Field, String> values) {
        Long millis = number(policy, field, values);
        return (millis != null) ? Duration.ofMillis(millis) : null;
    }

    private void unreadable(String field, String value) {
        if (this.unreadable.add(field + "=" + value)) {
            logger.error("Rate limit policy override field '" + field + "' = '" + value + "' in " + this.key
                    + " is not one this version writes; it is ignored");
        }
    }

    private static @Nullable Field field(String property) {
        for (Field field : FIELDS) {
            if (field.property().equals(property)) {
                return field;
            }
        }
        return null;
    }

    private static void put(List<String> fields, String policy, Field field, String value) {
        fields.add(policy + SEPARATOR + field.property());
        fields.add(value);
    }

    /**
     * What {@code policy_overrides.lua} keeps in {@value PolicyOverridesHash#WRITTEN}: a change never removes it, so a
     * hash that an instance read is never emptied, only lost by Redis.
     *
     * @param created when Redis made the hash, in microseconds of its clock since 1970
     * @param changes how many changes the hash has taken since
     */
    record Mark(String created, long changes) {

        /** No hash read yet, or none in Redis. */
        static final Mark NONE = new Mark("", 0);

        /**
         * Whether the hash that bore an earlier mark was lost since: it is gone, made anew, or has
         * fewer changes (Redis restored an older copy).
         * @param earlier the mark of an earlier read
         * @return {@code false} where the earlier read found no hash
         */
        boolean lostSince(Mark earlier) {
            return !earlier.equals(NONE) && (!this.created.equals(earlier.created) || this.changes < earlier.changes);
        }

    }

}
