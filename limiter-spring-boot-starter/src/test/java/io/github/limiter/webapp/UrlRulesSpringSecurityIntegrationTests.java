package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * URL rules around Spring Security's {@code formLogin}, on Spring MVC and Spring WebFlux: a rule on
 * the login runs before Spring Security's filter chain, so a refused attempt never reaches the
 * password encoder; a rule keyed by {@code #principal} runs after it, on the authenticated name,
 * and never sees a request Spring Security turned away. On Spring Boot 3.5 in an execution of its
 * own, with Spring Security on the classpath (see that starter's build).
 */
@WithRedis
class UrlRulesSpringSecurityIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Map<WebApplicationType, ConfigurableApplicationContext> apps = new EnumMap<>(
            WebApplicationType.class);

    // passwords the password encoder was asked to check
    static final AtomicInteger checkedPasswords = new AtomicInteger();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aRefusedLoginNeverReachesThePasswordEncoder(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = UrlRulesWebIntegrationTests.http(app);
        checkedPasswords.set(0);
        for (int attempt = 1; attempt <= 2; attempt++) {
            HttpResponse<String> failed = login(http, "ann", "wrong");
            assertThat(failed.statusCode()).isEqualTo(302);
            assertThat(failed.headers().firstValue("Location")).hasValueSatisfying(
                    (location) -> assertThat(location).endsWith("/login?error"));
        }
        assertThat(checkedPasswords).hasValue(2);
        HttpResponse<String> refused = login(http, "ann", "secret");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(JsonParserFactory.getJsonParser().parseMap(refused.body())).containsEntry("limitId", "login");
        assertThat(checkedPasswords).as("the refused attempt was not checked").hasValue(2);
        assertThat(redis.keys(prefix + "{login:*")).containsExactly(prefix + "{login:ann}");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aRuleOnThePrincipalCountsAuthenticatedRequestsOnly(WebApplicationType type) {
        ConfigurableApplicationContext app = app(type);
        String prefix = app.getEnvironment().getProperty("limiter.key-prefix");
        LocalHttp http = UrlRulesWebIntegrationTests.http(app);
        HttpResponse<String> loggedIn = login(http, "bob", "secret");
        assertThat(loggedIn.statusCode()).isEqualTo(302);
        String session = loggedIn.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        assertThat(http.send("GET", "/me", Map.of(), null).statusCode())
            .as("Spring Security sends the anonymous to the login").isEqualTo(302);
        for (int call = 1; call <= 2; call++) {
            HttpResponse<String> me = http.send("GET", "/me", Map.of("Cookie", session), null);
            assertThat(me.statusCode()).isEqualTo(200);
            assertThat(me.body()).isEqualTo("bob");
            assertThat(me.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(2 - call));
        }
        HttpResponse<String> refused = http.send("GET", "/me", Map.of("Cookie", session), null);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(JsonParserFactory.getJsonParser().parseMap(refused.body())).containsEntry("limitId", "me");
        assertThat(redis.keys(prefix + "{me:*")).as("only the authenticated requests were counted")
            .containsExactly(prefix + "{me:bob}");
    }

    private static HttpResponse<String> login(LocalHttp http, String username, String password) {
        return http.send("POST", "/login", Map.of("Content-Type", "application/x-www-form-urlencoded"),
                "username=" + username + "&password=" + password);
    }

    /** The application of a stack, started at its first test: each test's users are its own. */
    private static ConfigurableApplicationContext app(WebApplicationType type) {
        return apps.computeIfAbsent(type, (stack) -> start(stack, "url-rules-security-" + UUID.randomUUID() + ":"));
    }

    @AfterAll
    static void stop() {
        apps.values().forEach(ConfigurableApplicationContext::close);
    }

    private static ConfigurableApplicationContext start(WebApplicationType type, String prefix) {
        return new SpringApplicationBuilder(SecuredApp.class).web(type)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(), "--limiter.key-prefix=" + prefix,
                    "--limiter.web.rules.login.paths=/login", "--limiter.web.rules.login.methods=POST",
                    "--limiter.web.rules.login.key=#params['username']", "--limiter.web.rules.login.window=1m",
                    "--limiter.web.rules.login.max=2", "--limiter.web.rules.login.algorithm=sliding-log",
                    "--limiter.web.rules.me.paths=/me", "--limiter.web.rules.me.key=#principal",
                    "--limiter.web.rules.me.window=1m", "--limiter.web.rules.me.max=2",
                    "--limiter.web.rules.me.algorithm=sliding-log");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ServletSecurity.class, ServletSecurityRegistration.class, ReactiveSecurity.class, Handlers.class })
    static class SecuredApp {

        // counts the passwords it checks; the users' passwords are stored as they are
        @Bean
        PasswordEncoder passwordEncoder() {
            return new PasswordEncoder() {

                @Override
                public String encode(CharSequence raw) {
                    return raw.toString();
                }

                @Override
                public boolean matches(CharSequence raw, String encoded) {
                    checkedPasswords.incrementAndGet();
                    return raw.toString().equals(encoded);
                }

            };
        }

        static UserDetails[] users() {
            return new UserDetails[] { User.withUsername("ann").password("secret").roles("USER").build(),
                User.withUsername("bob").password("secret").roles("USER").build() };
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @EnableWebSecurity
    static class ServletSecurity {

        @Bean
        // Spring Security 6 declares its builders' Exception, 7 does not
        SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
                .formLogin(Customizer.withDefaults())
                .csrf(AbstractHttpConfigurer::disable)
                .build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(SecuredApp.users());
        }

    }

    /**
     * The chain registered at -100 as Spring Boot's security auto-configuration registers it:
     * Spring Boot 3.5's is in spring-boot-autoconfigure and does it here; Spring Boot 4's is in
     * spring-boot-security, which this module's tests leave out.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnMissingClass("org.springframework.boot.autoconfigure.security.servlet.SecurityFilterAutoConfiguration")
    static class ServletSecurityRegistration {

        @Bean
        DelegatingFilterProxyRegistrationBean securityFilterChainRegistration() {
            DelegatingFilterProxyRegistrationBean registration = new DelegatingFilterProxyRegistrationBean(
                    "springSecurityFilterChain");
            registration.setOrder(-100);
            return registration;
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @EnableWebFluxSecurity
    static class ReactiveSecurity {

        @Bean
        SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
            return http.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
                .formLogin(Customizer.withDefaults())
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .build();
        }

        @Bean
        MapReactiveUserDetailsService users() {
            return new MapReactiveUserDetailsService(SecuredApp.users());
        }

    }

    @RestController
    static class Handlers {

        @GetMapping("/me")
        public Mono<String> me(java.security.Principal principal) {
            return Mono.just(principal.getName());
        }

    }

}
