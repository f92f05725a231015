package io.github.limiter.deployments;

import java.security.cert.CertPathBuilderException;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.TestCertificates;
import io.lettuce.core.api.sync.RedisServerCommands;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.RedisConnectionFailureException;

import static io.github.limiter.deployments.RedisDeploymentsIntegrationTests.USER;
import static io.github.limiter.deployments.RedisDeploymentsIntegrationTests.assertDecidesExactlyOn;
import static io.github.limiter.deployments.RedisDeploymentsIntegrationTests.assertTheApplicationsOwnTemplateWritesTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The limiter decides over TLS, trusting what the application's SSL bundle trusts and nothing else,
 * with Lettuce or Jedis, whichever the application uses.
 */
class RedisTlsIntegrationTests {

    @Test
    void decidesOverTlsTrustingTheSslBundlesCertificateAuthority() {
        try (TestCertificates certificates = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates);
                LimitedApplication application = LimitedApplication.start(overTls(redis, certificates))) {
            assertDecidesExactlyOn(redis, application);
            assertTheApplicationsOwnTemplateWritesTo(redis, application);
        }
    }

    /**
     * The same as over TLS above but for the CA the bundle trusts: a limiter with trust of its own
     * (the JDK's, or none checked) would decide here.
     */
    @Test
    void refusesToDecideOverTlsWithAnUntrustedCertificateAuthority() {
        try (TestCertificates certificates = TestCertificates.generate();
                TestCertificates unrelated = TestCertificates.generate();
                EmbeddedRedis redis = EmbeddedRedis.startTls(certificates);
                LimitedApplication application = LimitedApplication.start(overTls(redis, unrelated))) {
            assertThat(application.limiterHealth()).isEqualTo(Status.DOWN);
            assertThatExceptionOfType(RateLimitExceededException.class)
                .isThrownBy(() -> application.callDenyingOnFailure(USER))
                .matches(RateLimitExceededException::isFailure, "refused because Redis could not decide");
            // the application's own connection, on the same bundle, tells why: the server's certificate
            assertThatExceptionOfType(RedisConnectionFailureException.class)
                .isThrownBy(() -> application.applicationTemplate().hasKey(USER))
                .withRootCauseInstanceOf(CertPathBuilderException.class);
            long keys = redis.withCommands(RedisServerCommands::dbsize);
            assertThat(keys).as("keys on the server").isZero();
        }
    }

    private static String[] overTls(EmbeddedRedis redis, TestCertificates trusted) {
        return new String[] { "spring.ssl.bundle.pem.redis.truststore.certificate=file:" + trusted.caCertificateFile(),
                "spring.data.redis.ssl.bundle=redis", "spring.data.redis.host=" + redis.host(),
                "spring.data.redis.port=" + redis.port() };
    }

}
