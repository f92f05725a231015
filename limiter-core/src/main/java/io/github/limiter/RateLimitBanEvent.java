package io.github.limiter;

import java.time.Duration;

/**
 * Published once when a key goes past a limit with a ban and is banned, by the application
 * instance whose call started the ban. A plain Spring application event: react to it with
 * {@code @EventListener}.
 *
 * @param limitId the limit's id
 * @param key the resolved key, such as a user id
 * @param banDuration how long the key is banned
 * @since 0.1.0
 */
public record RateLimitBanEvent(String limitId, String key, Duration banDuration) {

}
