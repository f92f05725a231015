package io.github.limiter.sample.redis;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when no property under {@code spring.data.redis} is set, in any form Boot binds
 * ({@code application.yml}, {@code --spring.data.redis.host=...}, {@code SPRING_DATA_REDIS_HOST}).
 */
class NoRedisConfiguredCondition extends SpringBootCondition {

    private static final ConfigurationPropertyName REDIS = ConfigurationPropertyName.of("spring.data.redis");

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(context.getEnvironment())) {
            if (source.containsDescendantOf(REDIS) == ConfigurationPropertyState.PRESENT) {
                return ConditionOutcome.noMatch("spring.data.redis.* is set in " + source.getUnderlyingSource());
            }
        }
        return ConditionOutcome.match("no spring.data.redis.* setting");
    }

}
