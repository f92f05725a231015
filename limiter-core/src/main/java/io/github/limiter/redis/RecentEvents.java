package io.github.limiter.redis;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Keeps the latest alerts and bans of each limit in Redis, from every application instance, so
 * operators see who tripped what without a log search: a bounded list per limit,
 * {@code <prefix>events:{<limit-id>}}, newest first, expiring a week after its latest event.
 *
 * <p>Written by one small script, only for the calls that raise an alert or start a ban. It is a
 * second command rather than part of the decision script because a per-limit list cannot share a
 * Redis Cluster slot with the per-key keys of every decision.
 *
 * <p>Internal API; it may change in any release.
 */
public final class RecentEvents implements RateLimitListener {

    /** Events kept per limit. */
    public static final int CAPACITY = 100;

    private static final Duration RETENTION = Duration.ofDays(7);

    private static final char SEPARATOR = '\u001f';

    private static final RedisScript<Long> RECORD = LimiterScripts.recordEvent();

    private final StringRedisTemplate redis;

    private final String keyPrefix;

    private final String instance = ManagementFactory.getRuntimeMXBean().getName();

    /**
     * Creates the recorder.
     * @param redis the template to write and read through
     * @param keyPrefix the limiter's key prefix
     */
    public RecentEvents(StringRedisTemplate redis, String keyPrefix) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        for (Decision decision : decisions) {
            if (decision.alertRaised()) {
                record(new Event("alert", Instant.now(), decision.limitId(), decision.key(), decision.count(),
                        decision.shadow(), this.instance));
            }
            if (decision.banStarted()) {
                record(new Event("ban", Instant.now(), decision.limitId(), decision.key(), decision.count(),
                        decision.shadow(), this.instance));
            }
        }
    }

    /**
     * Returns a limit's recent events, newest first.
     * @param limitId the limit's id
     * @return at most {@link #CAPACITY} events
     */
    public List<Event> recent(String limitId) {
        List<String> lines = this.redis.opsForList().range(key(limitId), 0, CAPACITY - 1);
        List<Event> events = new ArrayList<>();
        for (String line : (lines != null) ? lines : List.<String>of()) {
            Event event = Event.parse(line);
            if (event != null) {
                events.add(event);
            }
        }
        return events;
    }

    private void record(Event event) {
        this.redis.execute(RECORD, List.of(key(event.limitId())), event.format(), Integer.toString(CAPACITY),
                Long.toString(RETENTION.toMillis()));
    }

    private String key(String limitId) {
        return this.keyPrefix + "events:{" + limitId + "}";
    }

    /**
     * An alert or a ban, as recorded.
     *
     * @param type {@code alert} or {@code ban}
     * @param at when the instance decided it, by its clock
     * @param limitId the limit's id
     * @param key the key
     * @param count the key's count in its window at the time
     * @param shadow whether the limit was in shadow mode (a would-be ban)
     * @param instance the application instance that decided it, as {@code pid@host}
     */
    public record Event(String type, Instant at, String limitId, String key, long count, boolean shadow,
            String instance) {

        String format() {
            return String.join(String.valueOf(SEPARATOR), this.type, this.at.toString(), this.limitId,
                    this.key.replace(SEPARATOR, '?'), Long.toString(this.count), Boolean.toString(this.shadow),
                    this.instance);
        }

        static @Nullable Event parse(String line) {
            String[] fields = line.split(String.valueOf(SEPARATOR), -1);
            if (fields.length != 7) {
                return null;
            }
            try {
                return new Event(fields[0], Instant.parse(fields[1]), fields[2], fields[3], Long.parseLong(fields[4]),
                        Boolean.parseBoolean(fields[5]), fields[6]);
            }
            catch (RuntimeException ex) {
                return null;
            }
        }

    }

}
