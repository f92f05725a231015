package io.github.limiter.sample.auth;

/**
 * A user of the site.
 *
 * @param username the user's name
 * @param admin whether the user administers the site
 */
public record User(String username, boolean admin) {

}
