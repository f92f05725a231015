package io.github.limiter;

import java.time.Duration;

/**
 * Published once per key and window when a call goes past a limit's alert threshold, across all
 * application instances sharing the Redis. A plain Spring application event: react to it with
 * {@code @EventListener}.
 *
 * @param limitId the limit's id
 * @param key the resolved key, such as a user id
 * @param count the window's count with the alerting call
 * @param alertAt the limit's alert threshold
 * @param window the limit's window
 * @since 0.1.0
 */
public record RateLimitAlertEvent(String limitId, String key, long count, long alertAt, Duration window) {

}
