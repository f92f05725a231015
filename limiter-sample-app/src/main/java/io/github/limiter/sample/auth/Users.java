package io.github.limiter.sample.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

/**
 * The demo's users: readers {@code alice} and {@code bob}, and {@code admin}, all with the
 * password {@code password}.
 */
@Component
public class Users {

    private static final String DEMO_PASSWORD = "password";

    private static final Map<String, User> USERS = Map.of("alice", new User("alice", false), "bob",
            new User("bob", false), "admin", new User("admin", true));

    /**
     * Returns the user with these credentials.
     * @param username the user name
     * @param password the password
     * @return the user, or empty if the credentials are wrong
     */
    public Optional<User> authenticate(String username, String password) {
        User user = USERS.get(username);
        boolean match = MessageDigest.isEqual(DEMO_PASSWORD.getBytes(StandardCharsets.UTF_8),
                String.valueOf(password).getBytes(StandardCharsets.UTF_8));
        return (user != null && match) ? Optional.of(user) : Optional.empty();
    }

    /**
     * Returns a user by name.
     * @param username the user name
     * @return the user, or empty if there is none
     */
    public Optional<User> find(String username) {
        return Optional.ofNullable(USERS.get(username));
    }

}
