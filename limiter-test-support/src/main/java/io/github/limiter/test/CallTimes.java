package io.github.limiter.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * When a limited method's body ran, by every caller of every instance: what a partner behind the
 * limit sees. Checks that it never saw more than {@code max} calls in a window.
 */
public final class CallTimes {

    private final List<Long> nanos = Collections.synchronizedList(new ArrayList<>());

    /** Records a call, now ({@link System#nanoTime()}). */
    public void called() {
        this.nanos.add(System.nanoTime());
    }

    /** Forgets the calls recorded so far. */
    public void clear() {
        this.nanos.clear();
    }

    /**
     * Checks the calls recorded: {@code count} of them, and any {@code max + 1} in a row spanning
     * at least {@code window} less {@code slack} (the time from Redis's decision to the body).
     * @param count the calls expected
     * @param max the calls allowed per window
     * @param window the window
     * @param slack what the span may fall short of the window by
     * @throws AssertionError naming the calls that came too close
     */
    public void assertNoMoreThan(int count, int max, Duration window, Duration slack) {
        List<Long> times = new ArrayList<>(this.nanos);
        Collections.sort(times);
        if (times.size() != count) {
            throw new AssertionError("Expected " + count + " calls, but " + times.size() + " ran");
        }
        Duration least = window.minus(slack);
        for (int i = 0; i + max < times.size(); i++) {
            Duration span = Duration.ofNanos(times.get(i + max) - times.get(i));
            if (span.compareTo(least) <= 0) {
                throw new AssertionError("Calls " + i + " to " + (i + max) + " ran within " + span.toMillis()
                        + " ms: more than " + max + " in a window of " + window.toMillis() + " ms");
            }
        }
    }

}
