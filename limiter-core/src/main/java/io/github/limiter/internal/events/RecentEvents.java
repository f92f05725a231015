package io.github.limiter.internal.events;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.PrintableKeys;
import io.github.limiter.RateLimitAdmin.RecentEvent;
import io.github.limiter.RateLimitListener;
import io.github.limiter.redis.RedisRateLimiterBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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
 * Redis Cluster slot with the per-key keys of every decision. It is written, one event at a time,
 * on the executor it is given (the Spring Boot starter gives the limiter's scheduler), never on the
 * deciding thread: the call that raised the alert does not wait for it, and a decision completed on
 * the Redis client's I/O thread must not block it. The queue is bounded; events that
 * find it full, or that cannot be written while Redis is down, are dropped with one WARN line per
 * streak, since the alert and ban themselves are already in force.
 *
 * <p>Admin views read it to show the same alerts and bans on every instance, through
 * {@link io.github.limiter.RateLimitAdmin#recentEvents}: a limiter built with
 * {@link RedisRateLimiterBuilder#recentEvents} keeps one (the Spring Boot starter's does), and the
 * sample app's admin API and console are built on it.
 */
public final class RecentEvents implements RateLimitListener {

    /** Events kept per limit. */
    public static final int CAPACITY = 100;

    /** Keys up to this many characters are recorded whole; longer ones in their printable form. */
    static final int LONGEST_KEY = 200;

    /** Events waiting to be written, at most. */
    static final int QUEUE = 1000;

    private static final Log logger = LogFactory.getLog(RecentEvents.class);

    private static final Duration RETENTION = Duration.ofDays(7);

    private static final char SEPARATOR = '\u001f';

    // the version of the record's layout, its first field: a record of another version is skipped
    public static final String RECORD_VERSION = "1";

    private final StringRedisTemplate redis;

    // the script that records one event, and the list of a limit's events (RedisLayout)
    private final RedisScript<Long> record;

    private final Function<String, String> listOf;

    private final String instance = ManagementFactory.getRuntimeMXBean().getName();

    private final Executor executor;

    private final BlockingQueue<RecentEvent> pending = new LinkedBlockingQueue<>(QUEUE);

    // one writer at a time: set while a task that writes the pending events is submitted or running
    private final AtomicBoolean writing = new AtomicBoolean();

    // the events handed to the writer, and those it is done with: what awaitWritten waits on (the
    // executor's own task counts are approximate, and miss a task its thread has taken but not begun)
    private final AtomicLong queued = new AtomicLong();

    private final AtomicLong done = new AtomicLong();

    // dropped events are logged once per streak, not once per event
    private final AtomicBoolean dropping = new AtomicBoolean();

    /**
     * Creates the recorder.
     * @param redis the template to write and read through
     * @param record the script that records one event ({@code record_event.lua})
     * @param listOf the key of a limit's list, from its limit id
     * @param executor writes the events: the application's, which stops it
     */
    public RecentEvents(StringRedisTemplate redis, RedisScript<Long> record, Function<String, String> listOf,
            Executor executor) {
        this.redis = Objects.requireNonNull(redis, "redis must not be null");
        this.record = Objects.requireNonNull(record, "record must not be null");
        this.listOf = Objects.requireNonNull(listOf, "listOf must not be null");
        this.executor = Objects.requireNonNull(executor, "executor must not be null");
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        recordEvents(decisions);
    }

    /** Records the alerts and bans of a decision Redis made after its call had timed out, as any other's. */
    @Override
    public void onLateDecision(List<LimitRequest> requests, List<Decision> decisions) {
        recordEvents(decisions);
    }

    private void recordEvents(List<Decision> decisions) {
        for (Decision decision : decisions) {
            if (decision.alertRaised()) {
                record(new RecentEvent("alert", Instant.now(), decision.limitId(), decision.key(),
                        decision.count(), decision.shadow(), this.instance));
            }
            if (decision.banStarted()) {
                record(new RecentEvent("ban", Instant.now(), decision.limitId(), decision.key(),
                        decision.count(), decision.shadow(), this.instance));
            }
        }
    }

    /**
     * Returns a limit's recent events, newest first.
     * @param limitId the limit's id
     * @return at most {@link #CAPACITY} events
     */
    public List<RecentEvent> recent(String limitId) {
        List<String> lines = this.redis.opsForList().range(key(limitId), 0, CAPACITY - 1);
        List<RecentEvent> events = new ArrayList<>();
        for (String line : (lines != null) ? lines : List.<String>of()) {
            RecentEvent event = parse(line);
            if (event != null) {
                events.add(event);
            }
        }
        return events;
    }

    private void record(RecentEvent event) {
        this.queued.incrementAndGet();
        if (!this.pending.offer(event)) {
            this.queued.decrementAndGet();
            dropped(event, "more than " + QUEUE + " events wait to be written");
            return;
        }
        writeSoon();
    }

    private void writeSoon() {
        if (!this.writing.compareAndSet(false, true)) {
            return;
        }
        try {
            this.executor.execute(this::writePending);
        }
        catch (RejectedExecutionException ex) {
            // the executor stops with the application: what waits is dropped, as if Redis were down
            this.writing.set(false);
            RecentEvent event;
            while ((event = this.pending.poll()) != null) {
                this.queued.decrementAndGet();
                dropped(event, "the executor that writes them is stopped");
            }
        }
    }

    private void writePending() {
        try {
            RecentEvent event;
            while ((event = this.pending.poll()) != null) {
                try {
                    write(event);
                }
                finally {
                    this.done.incrementAndGet();
                }
            }
        }
        finally {
            this.writing.set(false);
        }
        // an event queued after the last poll, before the flag was cleared
        if (!this.pending.isEmpty()) {
            writeSoon();
        }
    }

    private void write(RecentEvent event) {
        try {
            this.redis.execute(this.record, List.of(key(event.limitId())), format(event),
                    Integer.toString(CAPACITY),
                    Long.toString(RETENTION.toMillis()));
            if (this.dropping.compareAndSet(true, false)) {
                logger.info("Recent rate-limit events are recorded again");
            }
        }
        catch (RuntimeException ex) {
            dropped(event, ex.getMessage());
        }
    }

    private void dropped(RecentEvent event, @Nullable String why) {
        if (this.dropping.compareAndSet(false, true)) {
            logger.warn("Recent rate-limit events are not recorded (" + why + "), such as the " + event.type()
                    + " of limit '" + event.limitId() + "'; the alerts and bans themselves are in force");
        }
    }

    /**
     * Waits until the events of decisions made so far are written, for tests and orderly shutdown.
     * @param timeout the longest to wait
     * @return whether they were written in time
     */
    public boolean awaitWritten(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long queuedSoFar = this.queued.get();
        // an event refused by a full queue is never done: it leaves the count it was in
        while (this.done.get() < Math.min(queuedSoFar, this.queued.get())) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    private String key(String limitId) {
        return this.listOf.apply(limitId);
    }

    /**
     * The record as the list holds it: eight fields separated by U+001F, the layout's version
     * first ({@link #RECORD_VERSION}), then type, time, limit id, key, count, shadow and instance.
     * The key is written losslessly ({@code \\} for a backslash, {@code \\u}{@code XXXX} for
     * U+001F and for a lone surrogate, which UTF-8 cannot carry), whole up to
     * {@value #LONGEST_KEY} characters and otherwise in its printable form: a record stays within
     * about two kilobytes whatever the key (its other fields are the application's), and the list,
     * at most {@value #CAPACITY} records, within about 200 KB, so that reading it never holds
     * Redis for long. A client's 1 MB keys make records of about 200 bytes.
     */
    static String format(RecentEvent event) {
        String key = (event.key().length() <= LONGEST_KEY) ? event.key() : PrintableKeys.of(event.key());
        return String.join(String.valueOf(SEPARATOR), RECORD_VERSION, event.type(), event.at().toString(),
                event.limitId(), encode(key), Long.toString(event.count()), Boolean.toString(event.shadow()),
                event.instance());
    }

    /** The event a record holds, or {@code null} for a record of another version, or unreadable. */
    static @Nullable RecentEvent parse(String line) {
        String[] fields = line.split(String.valueOf(SEPARATOR), -1);
        if (fields.length != 8 || !RECORD_VERSION.equals(fields[0])) {
            return null;
        }
        try {
            return new RecentEvent(fields[1], Instant.parse(fields[2]), fields[3], decode(fields[4]),
                    Long.parseLong(fields[5]), Boolean.parseBoolean(fields[6]), fields[7]);
        }
        catch (RuntimeException ex) {
            return null;
        }
    }

    private static String encode(String key) {
        StringBuilder encoded = null;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean escape = c == '\\' || c == SEPARATOR || isLoneSurrogate(key, i, c);
            if (escape && encoded == null) {
                encoded = new StringBuilder(key.length() + 8).append(key, 0, i);
            }
            if (encoded != null) {
                if (c == '\\') {
                    encoded.append("\\\\");
                }
                else if (escape) {
                    encoded.append("\\u").append(HexFormat.of().withUpperCase().toHexDigits(c));
                }
                else {
                    encoded.append(c);
                }
            }
        }
        return (encoded != null) ? encoded.toString() : key;
    }

    private static boolean isLoneSurrogate(String key, int i, char c) {
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(key.charAt(i - 1)));
    }

    private static String decode(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder decoded = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c != '\\') {
                decoded.append(c);
            }
            else if (field.charAt(i + 1) == 'u') {
                decoded.append((char) HexFormat.fromHexDigits(field, i + 2, i + 6));
                i += 5;
            }
            else {
                decoded.append(field.charAt(++i));
            }
        }
        return decoded.toString();
    }

}
