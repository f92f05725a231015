package io.github.limiter.autoconfigure.endpoint;

import java.util.Map;
import java.util.UUID;

import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ratelimits} endpoint's writes over HTTP, with no authentication in front of them. With
 * nothing else set, as a copied {@code exposure.include=*} leaves it, an anonymous client reads and
 * its writes are refused as Spring Boot refuses the writes of a read-only endpoint, the ban staying
 * in force; once {@code management.endpoint.ratelimits.access=unrestricted} turns them on, they are
 * done.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, classes = EndpointTestApp.class,
        properties = { EndpointTestApp.EXPOSED, EndpointTestApp.POLICY, EndpointTestApp.MAX, EndpointTestApp.WINDOW,
                EndpointTestApp.BAN })
class RateLimitsEndpointWritesIntegrationTests {

    private static final String PREFIX = "endpoint-writes-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void anAnonymousWriteIsRefusedByDefaultAndTheBanStaysInForce() {
        EndpointTestApp.Client app = new EndpointTestApp.Client(this.port);
        String user = EndpointTestApp.user();
        app.ban(user);

        // the key's path has its read: a write there is a method the path does not allow
        assertThat(app.send("POST", "/actuator/ratelimits/reads/" + user, null).statusCode()).isEqualTo(405);
        assertThat(app.send("DELETE", "/actuator/ratelimits/reads/" + user, null).statusCode()).isEqualTo(405);
        // a policy's path has nothing but writes: none is mapped
        assertThat(app.send("POST", "/actuator/ratelimits/reads", "{\"banFor\": \"1ms\"}").statusCode())
            .isEqualTo(404);
        assertThat(app.send("DELETE", "/actuator/ratelimits/reads", null).statusCode()).isEqualTo(404);

        assertThat(app.read(user)).as("still banned").isEqualTo(429);
        assertThat(app.send("GET", "/actuator/ratelimits/reads/" + user, null).body()).contains("\"banned\":true");
        assertThat(app.send("GET", "/actuator/ratelimits", null).body()).contains("\"override\":null",
                "\"banFor\":\"PT10M\"");
    }

    @Nested
    @TestPropertySource(properties = { "management.endpoint.ratelimits.access=unrestricted",
        "limiter.policies.api.limits[0].window=1s", "limiter.policies.api.limits[0].max=10",
        "limiter.policies.api.limits[1].window=1h", "limiter.policies.api.limits[1].max=1000" })
    class TurnedOn {

        @Value("${local.server.port}")
        private int port;

        @Test
        void anAnonymousWriteIsDoneAndLoggedWithWhatChangedAndAnonymous(CapturedOutput output) {
            EndpointTestApp.Client app = new EndpointTestApp.Client(this.port);
            String user = EndpointTestApp.user();
            app.ban(user);

            assertThat(app.send("POST", "/actuator/ratelimits/reads/" + user, null).body())
                .contains("\"wasBanned\":true");
            assertThat(app.read(user)).as("the ban is lifted").isEqualTo(200);
            assertThat(app.send("DELETE", "/actuator/ratelimits/reads/" + user, null).body())
                .contains("\"reset\":true");
            assertThat(app.send("POST", "/actuator/ratelimits/reads", "{\"max\": 3}").statusCode()).isEqualTo(200);
            assertThat(app.send("DELETE", "/actuator/ratelimits/reads", null).body())
                .contains("\"wasOverridden\":true");

            assertThat(output.getOut()).contains(
                    "Rate limit 'reads': ban of key '" + user + "' lifted by 'anonymous' through the ratelimits "
                            + "endpoint (it was banned)",
                    "Rate limit 'reads': count, ban and alert of key '" + user + "' reset by 'anonymous' through "
                            + "the ratelimits endpoint",
                    "Rate limit policy 'reads' is overridden by 'anonymous' on this instance: max=3.",
                    "Rate limit policy 'reads' is back to its configured values (override max=3 removed by "
                            + "'anonymous' on this instance)");
        }

        @Test
        void aPolicyWithSeveralLimitsIsListedAndOverriddenAsEachOfThem() {
            EndpointTestApp.Client app = new EndpointTestApp.Client(this.port);
            assertThat(app.send("GET", "/actuator/ratelimits", null).body()).contains("\"api.0\":{", "\"api.1\":{")
                .doesNotContain("\"api\":{");
            java.net.http.HttpResponse<String> whole = app.send("POST", "/actuator/ratelimits/api", "{\"max\": 3}");
            assertThat(whole.statusCode()).isEqualTo(400);
            assertThat(whole.body()).contains("Policy 'api' has several limits; override each of them by its own "
                    + "name: 'api.0' (max 10 per PT1S), 'api.1' (max 1000 per PT1H)");
            assertThat(app.send("POST", "/actuator/ratelimits/api.1", "{\"max\": 500}").statusCode())
                .isEqualTo(200);
            assertThat(app.send("GET", "/actuator/ratelimits", null).body())
                .contains("\"api.1\":{\"algorithm\":null,\"window\":\"PT1H\",\"max\":1000")
                .contains("\"override\":{\"max\":500");
            assertThat(app.send("DELETE", "/actuator/ratelimits/api.1", null).body())
                .contains("\"wasOverridden\":true");
        }

        @Test
        void aWriteNamesTheRequestsPrincipalEscapedAsAKey(CapturedOutput output) {
            // the container's authentication names the user; a name is client data, quoted as a key is
            EndpointTestApp.Client app = new EndpointTestApp.Client(this.port, Map.of(EndpointTestApp.USER, "o'ps"));
            String user = EndpointTestApp.user();
            app.ban(user);

            assertThat(app.send("POST", "/actuator/ratelimits/reads/" + user, null).body())
                .contains("\"wasBanned\":true");
            assertThat(app.send("POST", "/actuator/ratelimits/reads", "{\"max\": 4}").statusCode()).isEqualTo(200);
            assertThat(app.send("DELETE", "/actuator/ratelimits/reads", null).statusCode()).isEqualTo(200);
            assertThat(output.getOut()).contains(
                    "Rate limit 'reads': ban of key '" + user + "' lifted by 'o\\'ps' through the ratelimits "
                            + "endpoint (it was banned)",
                    "Rate limit policy 'reads' is overridden by 'o\\'ps' on this instance: max=4.",
                    "Rate limit policy 'reads' is back to its configured values (override max=4 removed by 'o\\'ps' "
                            + "on this instance)");
        }

    }

}
