package io.github.limiter.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the limiter says of its Redis's persistence: a Redis that writes nothing to disk loses every
 * ban and count when it restarts, and the limiter then lets banned clients in and counts from zero.
 * Never a reason to refuse Redis or to fail the start: a risk, not an outage.
 *
 * <p>The first reading, and each later one whose verdict changed, is logged once: at WARN for a
 * Redis without AOF and without RDB save points, at INFO where the save points could not be read
 * (AOF off) or where Redis writes to disk again.
 */
final class PersistenceReport {

    // the line of one category with the eviction policy's, for operators who filter the log
    private static final Log logger = LogFactory.getLog(RedisServerSettings.class);

    private static final String REMEDY = "Set appendonly yes with appendfsync everysec (a restart then loses at most "
            + "about a second of decisions); see \"Persistence: bans across a Redis restart\" in docs/operations.md.";

    private static final String LOST = "so banned clients are let in again and limits count from zero.";

    private @Nullable PersistenceReading reported;

    /** Logs a reading: the first, and a change of verdict. */
    synchronized void report(PersistenceReading reading) {
        PersistenceReading before = this.reported;
        this.reported = reading;
        String persistence = reading.persistence();
        if (before != null && before.persistence().equals(persistence)) {
            return;
        }
        PersistenceReading.Server worst = reading.worst();
        switch (persistence) {
            case PersistenceReading.NONE -> logger.warn("Redis writes none of its data to disk (appendonly no, "
                    + "save \"\")" + where(worst) + ": a restart of Redis loses every ban and count, " + LOST + " "
                    + REMEDY);
            case PersistenceReading.UNKNOWN -> logger.info("Rate limiting could not read whether Redis writes its "
                    + "data to disk" + where(worst) + ": AOF is off (appendonly no), and its RDB save points are "
                    + "unknown, as " + reading.savePointsUnread() + ". Whether bans and counts survive a restart "
                    + "of Redis is unknown; see \"Persistence: bans across a Redis restart\" in docs/operations.md.");
            default -> {
                if (before != null) {
                    logger.info("Redis now writes its data to disk (" + persistence + ")" + where(worst) + ": "
                            + (PersistenceReading.RDB.equals(persistence)
                                    ? "a restart of Redis keeps the bans and counts of its last snapshot"
                                    : "bans and counts survive a restart of Redis"));
                }
            }
        }
    }

    private static String where(PersistenceReading.Server server) {
        return server.node().isEmpty() ? "" : " on " + server.node();
    }

}
