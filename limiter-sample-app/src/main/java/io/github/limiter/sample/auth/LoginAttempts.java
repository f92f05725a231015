package io.github.limiter.sample.auth;

import io.github.limiter.annotation.RateLimit;

import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

/**
 * Checks a login's password under two limits that count failed attempts only, per user name and
 * per client address (policies {@code login-user} and {@code login-address} in
 * {@code application.yml}): each attempt takes one permit while the password is checked, so that
 * parallel guesses cannot pass the limit, and a successful login gives it back. Past either limit,
 * the login is answered 429 with {@code Retry-After} before any password is hashed, the right one
 * included, on every instance.
 */
@Component
public class LoginAttempts {

    /** The limit id of failed logins per user name. */
    public static final String BY_USER = "login.user";

    /** The limit id of failed logins per client address. */
    public static final String BY_ADDRESS = "login.address";

    private final AuthenticationManager authenticationManager;

    LoginAttempts(AuthenticationManager authenticationManager) {
        this.authenticationManager = authenticationManager;
    }

    /**
     * Checks the credentials.
     * @param username the user name, as the user store compares it
     * @param password the password
     * @return the authenticated user
     * @throws org.springframework.security.core.AuthenticationException for wrong credentials
     * @throws io.github.limiter.RateLimitExceededException past either limit
     */
    @RateLimit(name = BY_USER, key = "#username", policy = "login-user", actualCost = "#exception == null ? 0 : 1")
    @RateLimit(name = BY_ADDRESS, key = "#clientIp", policy = "login-address",
            actualCost = "#exception == null ? 0 : 1")
    public Authentication authenticate(String username, String password) {
        return this.authenticationManager
            .authenticate(UsernamePasswordAuthenticationToken.unauthenticated(username, password));
    }

}
