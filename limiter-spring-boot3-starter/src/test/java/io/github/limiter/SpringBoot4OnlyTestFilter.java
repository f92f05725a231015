package io.github.limiter;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Leaves out of this module's runs the Boot 4 starter's tests of what only Spring Boot 4 does,
 * each with the reason; every other test of the Boot 4 starter runs here on Spring Boot 3.5.
 * (Those that do not even compile against Spring Boot 3.5 are left out by the build instead.)
 * Registered through {@code META-INF/services}, as JUnit finds post-discovery filters.
 */
public class SpringBoot4OnlyTestFilter implements PostDiscoveryFilter {

    private static final String MASTER_REPLICA_PROPERTIES = "Spring Boot 4's spring.data.redis.masterreplica.* "
            + "properties; Spring Boot 3.5 has none (the limiter reads a RedisStaticMasterReplicaConfiguration bean)";

    private static final Map<String, String> BOOT_4_ONLY = Map.of(
            "io.github.limiter.deployments.MasterReplicaEvictionPolicyIntegrationTests", MASTER_REPLICA_PROPERTIES,
            "io.github.limiter.deployments.RedisDeploymentsIntegrationTests#decidesOnTheMasterOfAStaticMasterReplicaSetUp",
            MASTER_REPLICA_PROPERTIES,
            "io.github.limiter.deployments.RedisDeploymentsIntegrationTests#decidesOnTheMasterOfAStaticMasterReplicaSetUpThatReadsFromTheReplica",
            MASTER_REPLICA_PROPERTIES,
            "io.github.limiter.deployments.RedisDeploymentsIntegrationTests#anUnbanReachesEveryInstanceOfAStaticMasterReplicaSetUp",
            MASTER_REPLICA_PROPERTIES,
            "io.github.limiter.deployments.RedisUnreachableAtStartIntegrationTests#namesTheMasterReplicaNodes",
            MASTER_REPLICA_PROPERTIES,
            "io.github.limiter.deployments.RedisDeploymentsIntegrationTests#decidesOnTheMasterOfAStaticMasterReplicaConfigurationBean",
            "Spring Boot 4 builds the application's own connection factory from a "
                    + "RedisStaticMasterReplicaConfiguration bean; Spring Boot 3.5 leaves the bean to the application",
            "io.github.limiter.webapp.DecisionTracingIntegrationTests",
            "the script call's span is Lettuce's as Spring Boot 4 sets it up (LettuceObservationAutoConfiguration); "
                    + "Spring Boot 3.5 sets up no Lettuce observations");

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        String reason = descriptor.getSource().map(SpringBoot4OnlyTestFilter::reason).orElse(null);
        return (reason != null) ? FilterResult.excluded("Spring Boot 4 only: " + reason)
                : FilterResult.included("runs on Spring Boot 3.5 too");
    }

    // JUnit asks of each test, whose source is its method: the method's entry, else its class's
    private static @Nullable String reason(TestSource source) {
        if (source instanceof MethodSource method) {
            return BOOT_4_ONLY.getOrDefault(method.getClassName() + "#" + method.getMethodName(),
                    BOOT_4_ONLY.get(method.getClassName()));
        }
        return (source instanceof ClassSource type) ? BOOT_4_ONLY.get(type.getClassName()) : null;
    }

}
