package io.github.limiter.autoconfigure.endpoint;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterPolicyOverridesAutoConfiguration;
import io.github.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ratelimits} endpoint's writes turned on behind Spring Security, whose HTTP Basic
 * authentication lets only an administrator write: each write's log line names the user Spring
 * Security authenticated, and the start does not warn of open writes. (Spring Boot 4 only: see the
 * Boot 3.5 starter's build.)
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = { EndpointTestApp.class, RateLimitsEndpointSpringSecurityIntegrationTests.BasicAuthentication.class },
        properties = { EndpointTestApp.EXPOSED, EndpointTestApp.POLICY, EndpointTestApp.MAX, EndpointTestApp.WINDOW,
                EndpointTestApp.BAN, "management.endpoint.ratelimits.access=unrestricted" })
class RateLimitsEndpointSpringSecurityIntegrationTests {

    private static final String PREFIX = "endpoint-security-" + UUID.randomUUID() + ":";

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void eachWriteNamesTheUserSpringSecurityAuthenticated(CapturedOutput output) {
        EndpointTestApp.Client anonymous = new EndpointTestApp.Client(this.port);
        EndpointTestApp.Client admin = new EndpointTestApp.Client(this.port, Map.of("Authorization",
                "Basic " + Base64.getEncoder().encodeToString("admin:secret".getBytes(StandardCharsets.UTF_8))));
        String user = EndpointTestApp.user();
        anonymous.ban(user);

        assertThat(anonymous.send("POST", "/actuator/ratelimits/reads/" + user, null).statusCode()).isEqualTo(401);
        assertThat(anonymous.read(user)).as("still banned").isEqualTo(429);
        assertThat(admin.send("POST", "/actuator/ratelimits/reads/" + user, null).body()).contains("\"wasBanned\":true");
        assertThat(admin.send("DELETE", "/actuator/ratelimits/reads/" + user, null).statusCode()).isEqualTo(200);
        assertThat(admin.send("POST", "/actuator/ratelimits/reads", "{\"max\": 3}").statusCode()).isEqualTo(200);
        assertThat(admin.send("DELETE", "/actuator/ratelimits/reads", null).statusCode()).isEqualTo(200);

        assertThat(output.getOut()).contains(
                "Rate limit 'reads': ban of key '" + user + "' lifted by 'admin' through the ratelimits endpoint "
                        + "(it was banned)",
                "Rate limit 'reads': count, ban and alert of key '" + user + "' reset by 'admin' through the "
                        + "ratelimits endpoint",
                "Rate limit policy 'reads' is overridden by 'admin' on this instance: max=3.",
                "Rate limit policy 'reads' is back to its configured values (override max=3 removed by 'admin' on "
                        + "this instance)");
    }

    @Test
    void theStartDoesNotWarnOfOpenWritesWhereSpringSecurityHasAFilterChain(CapturedOutput output) {
        new WebApplicationContextRunner()
            .withInitializer(LimiterEndpointAutoConfigurationTests::bindAsSpringApplicationDoes)
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
                    LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterPolicyOverridesAutoConfiguration.class, LimiterEndpointAutoConfiguration.class))
            .withUserConfiguration(BasicAuthentication.class)
            .withPropertyValues(EndpointTestApp.EXPOSED, "management.endpoint.ratelimits.access=unrestricted")
            .run((context) -> {
                assertThat(context).hasSingleBean(SecurityFilterChain.class);
                assertThat(context).as("the check ran").hasSingleBean(UnsecuredWritesWarning.class);
                assertThat(output.getOut()).doesNotContain("The ratelimits endpoint's writes are open");
            });
    }

    /** Reads for everyone; anything else for administrators, who authenticate with HTTP Basic. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class BasicAuthentication {

        @Bean
        SecurityFilterChain securityFilterChain(HttpSecurity http) {
            http.authorizeHttpRequests((requests) -> requests.requestMatchers(HttpMethod.GET, "/**")
                .permitAll()
                .anyRequest()
                .hasRole("ADMIN"))
                .httpBasic(Customizer.withDefaults())
                // a client of HTTP Basic sends no CSRF token, and a browser sends no Basic credentials unasked
                .csrf(AbstractHttpConfigurer::disable);
            return http.build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("admin").password("{noop}secret").roles("ADMIN").build());
        }

    }

}
