package io.github.limiter.sample.auth;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * Bearer tokens, kept in memory. Revoking a user's tokens logs every session of the user out at
 * once.
 */
@Component
public class Tokens {

    private final SecureRandom random = new SecureRandom();

    private final Map<String, String> usernamesByToken = new ConcurrentHashMap<>();

    /**
     * Issues a new token for a user.
     * @param username the user name
     * @return the token
     */
    public String issue(String username) {
        byte[] bytes = new byte[24];
        this.random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        this.usernamesByToken.put(token, username);
        return token;
    }

    /**
     * Returns the user name a token was issued to.
     * @param token the token
     * @return the user name, or empty if the token is unknown or revoked
     */
    public Optional<String> username(String token) {
        return Optional.ofNullable(this.usernamesByToken.get(token));
    }

    /**
     * Revokes every token of a user.
     * @param username the user name
     * @return how many tokens were revoked
     */
    public int revokeAll(String username) {
        int before = this.usernamesByToken.size();
        this.usernamesByToken.values().removeIf(username::equals);
        return before - this.usernamesByToken.size();
    }

}
