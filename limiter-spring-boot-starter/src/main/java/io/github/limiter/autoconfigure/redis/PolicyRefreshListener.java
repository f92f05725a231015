package io.github.limiter.autoconfigure.redis;

import io.github.limiter.autoconfigure.LimiterPolicyProperties;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.github.limiter.LimitChecks.Field;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.policy.PolicyOverrides;
import io.github.limiter.redis.RedisPolicyOverrides;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.dao.DataAccessException;

/**
 * A configuration refresh (Spring Cloud's {@link EnvironmentChangeEvent}, after
 * {@code /actuator/refresh}, a Spring Cloud Bus message or a config server push) that changes
 * {@code limiter.policies.<name>.max}, {@code window}, {@code alert-at} or {@code ban-for} changes
 * the policy on every instance: the new values go to Redis as the policy's override, as from the
 * {@code ratelimits} endpoint. A value refreshed back to what the application started with removes
 * that part of the override. A refresh of another policy property ({@code algorithm}, {@code mode},
 * {@code on-failure}) takes a restart, and says so.
 */
final class PolicyRefreshListener implements ApplicationListener<EnvironmentChangeEvent> {

    private static final Log logger = LogFactory.getLog(PolicyRefreshListener.class);

    private static final String PREFIX = "limiter.policies.";

    private final Environment environment;

    private final RedisPolicyOverrides store;

    private final PolicyOverrides overrides;

    PolicyRefreshListener(Environment environment, RedisPolicyOverrides store, PolicyOverrides overrides) {
        this.environment = environment;
        this.store = store;
        this.overrides = overrides;
    }

    @Override
    public void onApplicationEvent(EnvironmentChangeEvent event) {
        Map<String, Set<Field>> changed = new LinkedHashMap<>();
        for (String key : event.getKeys()) {
            if (!key.startsWith(PREFIX) || key.lastIndexOf('.') <= PREFIX.length()) {
                continue;
            }
            String policy = key.substring(PREFIX.length(), key.lastIndexOf('.'));
            String property = key.substring(key.lastIndexOf('.') + 1);
            Field field = field(property);
            if (field != null) {
                changed.computeIfAbsent(policy, (name) -> EnumSet.noneOf(Field.class)).add(field);
            }
            else {
                logger.warn("Configuration refresh changed " + key + ", which a running application cannot apply; "
                        + "it applies after a restart. Only max, window, alert-at and ban-for change while it runs");
            }
        }
        changed.forEach(this::refresh);
    }

    /**
     * Refreshes one policy's override.
     * @param properties the policy's properties under {@code limiter.policies}: its name, or for
     * one of its several limits {@code <name>.limits[<index>]}, whose override is {@code <name>.<index>}
     */
    private void refresh(String properties, Set<Field> fields) {
        String policy = properties.replaceFirst("\\.limits\\[(\\d+)]$", ".$1");
        LimitPolicy configured = this.overrides.configured(policy);
        if (configured == null) {
            logger.warn("Configuration refresh changed limiter.policies." + policy + ", a policy the application did "
                    + "not start with; a new policy applies after a restart");
            return;
        }
        LimiterPolicyProperties refreshed = Binder.get(this.environment)
            .bind(PREFIX + properties, LimiterPolicyProperties.class)
            .orElseGet(LimiterPolicyProperties::new);
        PolicyOverride now = new PolicyOverride(refreshed.getMax(), refreshed.getWindow(), refreshed.getAlertAt(),
                refreshed.getBanFor());
        PolicyOverride atStart = new PolicyOverride(configured.max(), configured.window(), configured.alertAt(),
                configured.banFor());
        // a value refreshed away (or back to what the application started with) ends its override
        Set<Field> removed = EnumSet.noneOf(Field.class);
        for (Field field : fields) {
            Object value = value(now, field);
            if (value == null || value.equals(value(atStart, field))) {
                removed.add(field);
            }
        }
        PolicyOverride set = new PolicyOverride(kept(now.max(), Field.MAX, fields, removed),
                kept(now.window(), Field.WINDOW, fields, removed), kept(now.alertAt(), Field.ALERT_AT, fields, removed),
                kept(now.banFor(), Field.BAN_FOR, fields, removed));
        try {
            // no one is named: the refresh does not say who changed the configuration
            this.store.change(policy, set, removed, null);
        }
        catch (IllegalArgumentException ex) {
            logger.error("Configuration refresh of limiter.policies." + policy + " not applied: " + ex.getMessage());
        }
        catch (DataAccessException ex) {
            logger.error("Configuration refresh of limiter.policies." + policy + " not applied: Redis, which keeps "
                    + "policy changes for every instance, cannot be written (" + ex.getMessage() + ")");
        }
    }

    private static @Nullable Object value(PolicyOverride values, Field field) {
        return switch (field) {
            case MAX -> values.max();
            case WINDOW -> values.window();
            case ALERT_AT -> values.alertAt();
            case BAN_FOR -> values.banFor();
            default -> null;
        };
    }

    /** A refreshed value to set: one the refresh changed, and not back to its start. */
    private static <T> @Nullable T kept(@Nullable T value, Field field, Set<Field> refreshed, Set<Field> removed) {
        return (refreshed.contains(field) && !removed.contains(field)) ? value : null;
    }

    private static @Nullable Field field(String property) {
        String name = property.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
        return switch (name) {
            case "max" -> Field.MAX;
            case "window" -> Field.WINDOW;
            case "alertat" -> Field.ALERT_AT;
            case "banfor" -> Field.BAN_FOR;
            default -> null;
        };
    }

}
