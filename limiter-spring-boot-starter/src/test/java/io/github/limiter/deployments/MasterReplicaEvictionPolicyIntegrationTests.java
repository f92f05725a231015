package io.github.limiter.deployments;

import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code maxmemory-policy} the limiter reports is its master's, where its writes go, also when
 * the application reads from replicas: Lettuce sends {@code INFO} to a replica then, and a replica
 * configured otherwise (here {@code noeviction}) would hide a master that evicts (Lettuce only, as
 * static master/replica set-ups are).
 */
@ExtendWith(OutputCaptureExtension.class)
class MasterReplicaEvictionPolicyIntegrationTests {

    @Test
    void theMastersPolicyIsReportedWhenTheApplicationReadsFromTheReplica(CapturedOutput output) {
        try (EmbeddedRedis master = EmbeddedRedis.startWith("maxmemory 64mb", "maxmemory-policy allkeys-lru");
                EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master)) {
            replica.awaitMasterLinkUp();
            try (LimitedApplication application = LimitedApplication.start(
                    "spring.data.redis.masterreplica.nodes=" + replica.host() + ":" + replica.port() + ","
                            + master.host() + ":" + master.port(),
                    "spring.data.redis.lettuce.read-from=replica-preferred")) {
                assertThat(application.limiterHealthDetails()).containsEntry("maxmemoryPolicy", "allkeys-lru");
                assertThat(output.getOut()).contains("maxmemory-policy is allkeys-lru");
            }
        }
    }

}
