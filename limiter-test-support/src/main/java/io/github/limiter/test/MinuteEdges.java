package io.github.limiter.test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts no test in the last {@value #ROOM_MILLIS} ms of a minute. Fixed windows are periods of
 * Redis's clock, aligned on multiples of their length, so windows of a minute, an hour or a day all
 * end on a minute's edge; a test that counts calls in one such window would otherwise see it end
 * under its calls now and then. The test Redis servers run on this machine, whose clock they share.
 * Registered for every test of the modules that use this one (autodetected, see
 * {@code junit-platform.properties}); a test that needs more room, or counts in shorter windows,
 * asks {@link FixedWindows#awaitRoom} for it.
 */
public final class MinuteEdges implements BeforeEachCallback {

    static final long ROOM_MILLIS = 3_000;

    private static final long MINUTE_MILLIS = 60_000;

    @Override
    public void beforeEach(ExtensionContext context) {
        long left = MINUTE_MILLIS - System.currentTimeMillis() % MINUTE_MILLIS;
        // until the next minute starts (a park may return early)
        while (left < ROOM_MILLIS) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left));
            left = MINUTE_MILLIS - System.currentTimeMillis() % MINUTE_MILLIS;
        }
    }

}
