package io.github.limiter.internal.events;

import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The log lines of alerts and bans, bounded: an attacker who rotates keys starts bans as fast as it
 * sends requests, and must not decide how much the application logs. An interval starts with the
 * first line after the previous one ended; its first {@code maxLines} lines are written, the rest
 * counted by limit and kind, and when it ends one line says how many were left out. The events and
 * meters are not bounded: they count every alert and ban.
 *
 * <p>The closing line is written when the interval ends, by a daemon thread that exists only while
 * an interval has lines left out (it ends after a minute idle), or by the first line after it, or
 * when the log is closed, whichever comes first; never twice.
 */
final class AlertAndBanLog implements AutoCloseable {

    /** Schedules a task after a delay; the default starts a daemon thread when first needed. */
    @FunctionalInterface
    interface Scheduler {

        void schedule(Runnable task, long delayNanos);

    }

    private final Consumer<String> warn;

    private final int maxLines;

    private final Duration interval;

    private final LongSupplier nanoTime;

    private final Scheduler scheduler;

    // limit id -> alerts and bans left out of the current interval
    private final Map<String, long[]> held = new TreeMap<>();

    private long intervalEnd;

    private long intervals;

    private boolean open;

    private int written;

    private long heldTotal;

    private boolean closingScheduled;

    private @Nullable ScheduledThreadPoolExecutor timer;

    // once closed, no timer starts again: a closing line then waits for the next line
    private boolean closed;

    AlertAndBanLog(Consumer<String> warn, int maxLines, Duration interval) {
        this(warn, maxLines, interval, System::nanoTime, null);
    }

    AlertAndBanLog(Consumer<String> warn, int maxLines, Duration interval, LongSupplier nanoTime,
            @Nullable Scheduler scheduler) {
        if (maxLines < 0) {
            throw new IllegalArgumentException("maxLines must not be negative, not " + maxLines);
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, not " + interval);
        }
        this.warn = warn;
        this.maxLines = maxLines;
        this.interval = interval;
        this.nanoTime = nanoTime;
        this.scheduler = (scheduler != null) ? scheduler : this::scheduleOnTimer;
    }

    /** Writes an alert's line, or counts it. */
    void alert(String limitId, Supplier<String> line) {
        line(limitId, 0, line);
    }

    /** Writes a ban's line (a shadow limit's would-be ban too), or counts it. */
    void ban(String limitId, Supplier<String> line) {
        line(limitId, 1, line);
    }

    private void line(String limitId, int kind, Supplier<String> line) {
        String closing = null;
        boolean write;
        long scheduleIn = -1;
        long thisInterval;
        synchronized (this) {
            long now = this.nanoTime.getAsLong();
            if (this.open && now - this.intervalEnd >= 0) {
                closing = ending(now);
            }
            if (!this.open) {
                this.open = true;
                this.intervals++;
                this.intervalEnd = now + this.interval.toNanos();
                this.written = 0;
                this.closingScheduled = false;
            }
            thisInterval = this.intervals;
            write = this.written < this.maxLines;
            if (write) {
                this.written++;
            }
            else {
                this.held.computeIfAbsent(limitId, id -> new long[2])[kind]++;
                this.heldTotal++;
                if (!this.closingScheduled) {
                    this.closingScheduled = true;
                    scheduleIn = this.intervalEnd - now;
                }
            }
        }
        if (closing != null) {
            this.warn.accept(closing);
        }
        if (write) {
            this.warn.accept(line.get());
        }
        if (scheduleIn >= 0) {
            this.scheduler.schedule(() -> end(thisInterval), scheduleIn);
        }
    }

    /** Ends an interval, if it is still the current one: its closing line, if it left lines out. */
    void end(long interval) {
        String closing;
        synchronized (this) {
            if (!this.open || this.intervals != interval) {
                return;
            }
            closing = ending(this.nanoTime.getAsLong());
        }
        if (closing != null) {
            this.warn.accept(closing);
        }
    }

    /** Writes the current interval's closing line now, and stops the timer. */
    @Override
    public void close() {
        String closing;
        ScheduledThreadPoolExecutor timer;
        synchronized (this) {
            closing = this.open ? ending(this.nanoTime.getAsLong()) : null;
            this.closed = true;
            timer = this.timer;
            this.timer = null;
        }
        if (closing != null) {
            this.warn.accept(closing);
        }
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    // under the lock: ends the interval and answers its closing line, or null if it left none out
    private @Nullable String ending(long now) {
        this.open = false;
        if (this.heldTotal == 0) {
            return null;
        }
        StringJoiner byLimit = new StringJoiner("; ");
        this.held.forEach((limitId, counts) -> byLimit.add("limit '" + limitId + "' " + counts[0] + " alert"
                + ((counts[0] == 1) ? "" : "s") + " and " + counts[1] + " ban" + ((counts[1] == 1) ? "" : "s")));
        long lasted = Math.min(now - (this.intervalEnd - this.interval.toNanos()), this.interval.toNanos());
        String closing = "Rate limiting left " + this.heldTotal + " alert and ban line"
                + ((this.heldTotal == 1) ? "" : "s") + " out of the log in the last " + text(Duration.ofNanos(lasted))
                + ", past the first " + this.maxLines + " (limiter.event-log.max-lines per limiter.event-log.interval, "
                + text(this.interval) + "): " + byLimit + ". Their events were published and counted as usual";
        this.held.clear();
        this.heldTotal = 0;
        return closing;
    }

    private static String text(Duration duration) {
        long millis = duration.toMillis();
        return (millis % 1000 == 0) ? (millis / 1000) + " s" : millis + " ms";
    }

    private void scheduleOnTimer(Runnable task, long delayNanos) {
        ScheduledThreadPoolExecutor timer;
        synchronized (this) {
            timer = this.timer;
            if (this.closed) {
                return;
            }
            if (timer == null) {
                timer = new ScheduledThreadPoolExecutor(1, runnable -> {
                    Thread thread = new Thread(runnable, "limiter-event-log");
                    thread.setDaemon(true);
                    return thread;
                });
                timer.setKeepAliveTime(1, TimeUnit.MINUTES);
                timer.allowCoreThreadTimeOut(true);
                this.timer = timer;
            }
        }
        timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

}
