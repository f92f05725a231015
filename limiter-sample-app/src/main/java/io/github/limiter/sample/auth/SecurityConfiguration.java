package io.github.limiter.sample.auth;

import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint;
import io.github.limiter.sample.answers.Plans;

import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.session.web.http.HttpSessionIdResolver;

/**
 * Who may do what. Readers ({@code alice} and {@code bob} on the {@code free} plan, {@code carol} on
 * {@code pro}; see {@link Plans}) read answers; the administrator ({@code admin}) also reads the
 * admin API and every actuator endpoint but health, and is the only one who may write (lift bans,
 * change a plan's limits). A request is recognised by its bearer token, which is the id of its
 * session in Redis (see {@link SessionConfiguration}), so every instance knows every token.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    /** The administrators' role. */
    static final String ADMIN = "ADMIN";

    /** The readers' role. */
    static final String READER = "READER";

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, ProblemResponses problems) {
        http.authorizeHttpRequests((requests) -> requests
            .requestMatchers(EndpointRequest.to(HealthEndpoint.class)).permitAll()
            .requestMatchers(EndpointRequest.to(RateLimitsEndpoint.class)).hasRole(ADMIN)
            .requestMatchers(EndpointRequest.toAnyEndpoint()).hasRole(ADMIN)
            .requestMatchers(HttpMethod.POST, "/api/login").permitAll()
            .requestMatchers(HttpMethod.POST, "/api/logout").authenticated()
            .requestMatchers(HttpMethod.GET, "/console/**").permitAll()
            .requestMatchers("/error").permitAll()
            .requestMatchers("/admin/**").hasRole(ADMIN)
            .requestMatchers(HttpMethod.GET, "/questions/**").hasRole(READER)
            .anyRequest().denyAll());
        // Tokens travel in a header a browser never adds by itself, so there is no cross-site request
        // to forge; and no request but a login creates a session.
        http.csrf(AbstractHttpConfigurer::disable)
            .sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.NEVER))
            .requestCache((cache) -> cache.disable())
            .formLogin(AbstractHttpConfigurer::disable)
            .httpBasic(AbstractHttpConfigurer::disable)
            .logout(AbstractHttpConfigurer::disable)
            .exceptionHandling((exceptions) -> exceptions
                .authenticationEntryPoint((request, response, ex) -> problems.write(request, response,
                        HttpStatus.UNAUTHORIZED, "Log in with POST /api/login and send Authorization: Bearer <token>"))
                .accessDeniedHandler((request, response, ex) -> problems.write(request, response,
                        HttpStatus.FORBIDDEN, "Administrators only")));
        return http.build();
    }

    @Bean
    HttpSessionIdResolver bearerTokenSessionIdResolver() {
        return new BearerTokenSessionIdResolver();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * The demo's users, all with the password {@code password}. A reader's plan is an authority
     * ({@code PLAN_FREE}, {@code PLAN_PRO}); the admin has none, so the admin's reads count under
     * {@code limiter.default-policy}, {@code free}.
     */
    @Bean
    UserDetailsService users(PasswordEncoder passwordEncoder) {
        String password = passwordEncoder.encode("password");
        return new InMemoryUserDetailsManager(reader("alice", password, Plans.FREE),
                reader("bob", password, Plans.FREE), reader("carol", password, Plans.PRO),
                User.withUsername("admin").password(password).roles(READER, ADMIN).build());
    }

    private static UserDetails reader(String username, String password, String plan) {
        return User.withUsername(username)
            .password(password)
            .authorities("ROLE_" + READER, Plans.authority(plan))
            .build();
    }

    @Bean
    AuthenticationManager authenticationManager(UserDetailsService users, PasswordEncoder passwordEncoder) {
        DaoAuthenticationProvider provider = new DaoAuthenticationProvider(users);
        provider.setPasswordEncoder(passwordEncoder);
        return new ProviderManager(provider);
    }

}
