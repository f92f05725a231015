package io.github.limiter.webrules;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The URL rules docs/web.md shows beside Spring Security ({@code url-rules-security.yml}), over HTTP
 * on Tomcat and a real Redis: a rule on formLogin()'s {@code POST /login} refuses the sixth attempt
 * for a user name before Spring Security checks its password, the right password too; a rule keyed
 * by {@code #principal} counts HTTP Basic requests per authenticated user, after Spring Security,
 * which answers unauthenticated requests itself, uncounted. Outside the sample app's package, so that
 * its component scan never finds this application.
 */
@WithRedis
class UrlRulesBesideSpringSecurityTests {

    private static final String PREFIX = "url-rules-security-" + UUID.randomUUID() + ":";

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static ConfigurableApplicationContext app;

    private static LocalHttp http;

    @BeforeAll
    static void start() {
        app = new SpringApplicationBuilder(SecuredApp.class).bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--spring.config.name=url-rules-security", "--server.port=0",
                    "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(), "--limiter.key-prefix=" + PREFIX);
        http = new LocalHttp(Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0")));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void theSixthLoginOfAUserNameIsRefusedBeforeItsPasswordIsChecked() {
        CountingPasswordEncoder passwords = app.getBean(CountingPasswordEncoder.class);
        int before = passwords.checked();
        for (int attempt = 1; attempt <= 5; attempt++) {
            HttpResponse<String> wrong = login("alice", "guess-" + attempt);
            assertThat(wrong.statusCode()).as("attempt %d: formLogin's answer", attempt).isEqualTo(302);
            assertThat(wrong.headers().firstValue("Location")).hasValueSatisfying(
                    (location) -> assertThat(location).endsWith("/login?error"));
        }
        assertThat(passwords.checked() - before).as("five passwords checked").isEqualTo(5);

        HttpResponse<String> refused = login("alice", "guess-6");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isPositive()
            .isLessThanOrEqualTo(900);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"login\";q=5;w=900");
        assertThat(refused.body()).contains("\"limitId\":\"login\"", "\"instance\":\"/login\"",
                "\"type\":\"https://limiter.github.io/problems/rate-limit-exceeded\"");
        assertThat(login("alice", "password").statusCode()).as("the right password, within the window")
            .isEqualTo(429);
        assertThat(passwords.checked() - before).as("no password checked past the limit").isEqualTo(5);

        HttpResponse<String> bob = login("bob", "password");
        assertThat(bob.statusCode()).as("another user name: logged in").isEqualTo(302);
        assertThat(bob.headers().firstValue("Location")).hasValueSatisfying(
                (location) -> assertThat(location).doesNotContain("error"));
        assertThat(redis.keys(PREFIX + "{login:*")).containsExactlyInAnyOrder(PREFIX + "{login:alice}",
                PREFIX + "{login:bob}");

        HttpResponse<String> blank = http.send("POST", "/login",
                Map.of("Content-Type", "application/x-www-form-urlencoded"), "password=guess");
        assertThat(blank.statusCode()).as("no user name to count by: the client's mistake").isEqualTo(400);
        assertThat(blank.body()).contains("\"limitId\":\"login\"", "/blank-key");
    }

    @Test
    void aRuleThatReadsThePrincipalCountsAuthenticatedRequestsAfterSpringSecurity() {
        for (int report = 1; report <= 3; report++) {
            HttpResponse<String> allowed = report("carol");
            assertThat(allowed.statusCode()).as("report %d", report).isEqualTo(200);
            assertThat(allowed.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(3 - report));
        }
        HttpResponse<String> refused = report("carol");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("\"limitId\":\"reports\"");
        assertThat(report("dave").statusCode()).as("another user's count").isEqualTo(200);

        HttpResponse<String> anonymous = http.get("/reports/daily");
        assertThat(anonymous.statusCode()).as("Spring Security's own answer, before the rule").isEqualTo(401);
        assertThat(redis.keys(PREFIX + "{reports:*")).containsExactlyInAnyOrder(PREFIX + "{reports:carol}",
                PREFIX + "{reports:dave}");
    }

    private static HttpResponse<String> login(String username, String password) {
        return http.send("POST", "/login", Map.of("Content-Type", "application/x-www-form-urlencoded"),
                "username=" + username + "&password=" + password);
    }

    private static HttpResponse<String> report(String username) {
        String basic = Base64.getEncoder().encodeToString((username + ":password").getBytes(StandardCharsets.UTF_8));
        return http.send("GET", "/reports/daily", Map.of("Authorization", "Basic " + basic), null);
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Reports.class)
    static class SecuredApp {

        // formLogin() for browsers, HTTP Basic for scripts; no CSRF token, so that the test posts the form as is
        @Bean
        SecurityFilterChain securityFilterChain(HttpSecurity http) {
            http.authorizeHttpRequests((requests) -> requests.requestMatchers("/reports/**").authenticated()
                .anyRequest()
                .permitAll())
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults())
                .csrf(AbstractHttpConfigurer::disable);
            return http.build();
        }

        @Bean
        CountingPasswordEncoder passwordEncoder() {
            return new CountingPasswordEncoder();
        }

        @Bean
        UserDetailsService users(PasswordEncoder passwordEncoder) {
            String password = passwordEncoder.encode("password");
            return new InMemoryUserDetailsManager(
                    User.withUsername("alice").password(password).roles("USER").build(),
                    User.withUsername("bob").password(password).roles("USER").build(),
                    User.withUsername("carol").password(password).roles("USER").build(),
                    User.withUsername("dave").password(password).roles("USER").build());
        }

    }

    @RestController
    static class Reports {

        @GetMapping("/reports/{name}")
        String report(@PathVariable String name) {
            return "report " + name;
        }

    }

    /** Spring Security's default encoder, counting the passwords it checks. */
    static final class CountingPasswordEncoder implements PasswordEncoder {

        private final PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();

        private final AtomicInteger checked = new AtomicInteger();

        @Override
        public String encode(CharSequence rawPassword) {
            return this.encoder.encode(rawPassword);
        }

        @Override
        public boolean matches(CharSequence rawPassword, String encodedPassword) {
            this.checked.incrementAndGet();
            return this.encoder.matches(rawPassword, encodedPassword);
        }

        int checked() {
            return this.checked.get();
        }

    }

}
