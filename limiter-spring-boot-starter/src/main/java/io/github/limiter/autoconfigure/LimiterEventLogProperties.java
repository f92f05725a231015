package io.github.limiter.autoconfigure;

import java.time.Duration;

/**
 * One WARN line per alert and per ban, up to a bound per interval: the rest of an interval's are
 * counted, by limit, in one line when it ends. Events and meters count every alert and ban.
 *
 * @since 0.1.0
 */
public class LimiterEventLogProperties {

    /**
     * Most WARN lines for alerts and bans each instance writes per interval; those past it are
     * counted in one line at the interval's end. 0 writes only that line.
     */
    private int maxLines = 10;

    /**
     * The interval the lines are bounded over: it starts with the first line after the
     * previous one ended.
     */
    private Duration interval = Duration.ofMinutes(1);

    public int getMaxLines() {
        return this.maxLines;
    }

    public void setMaxLines(int maxLines) {
        this.maxLines = maxLines;
    }

    public Duration getInterval() {
        return this.interval;
    }

    public void setInterval(Duration interval) {
        this.interval = interval;
    }

}
