package io.github.limiter.autoconfigure.internal;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

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
 * (AOF off) or where Redis writes to disk again. A master that restarted between two readings (its
 * {@code run_id} changed, and it started since the earlier one) is logged too: at WARN where it
 * lost the limiter's keys (no persistence before or after the restart), else at INFO.
 */
final class PersistenceReport {

    // the line of one category with the eviction policy's, for operators who filter the log
    private static final Log logger = LogFactory.getLog(RedisServerSettings.class);

    private static final String REMEDY = "Set appendonly yes with appendfsync everysec (a restart then loses at most "
            + "about a second of decisions); see \"Persistence: bans across a Redis restart\" in docs/operations.md.";

    private static final String LOST = "so banned clients are let in again and limits count from zero.";

    private @Nullable PersistenceReading reported;

    private long reportedAt;

    /** Logs a reading: the first, a change of verdict, and the masters that restarted since the last one. */
    synchronized void report(PersistenceReading reading) {
        PersistenceReading before = this.reported;
        long now = System.nanoTime();
        long elapsedSeconds = TimeUnit.NANOSECONDS.toSeconds(now - this.reportedAt) + 1;
        this.reported = reading;
        this.reportedAt = now;
        if (before != null) {
            restarts(before, reading, elapsedSeconds);
        }
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

    private static void restarts(PersistenceReading before, PersistenceReading after, long elapsedSeconds) {
        Map<String, PersistenceReading.Server> earlier = before.servers()
            .stream()
            .collect(Collectors.toMap(PersistenceReading.Server::node, Function.identity()));
        for (PersistenceReading.Server server : after.servers()) {
            PersistenceReading.Server was = earlier.get(server.node());
            if (was != null && server.restartedSince(was, elapsedSeconds)) {
                restarted(was, server);
            }
        }
    }

    /**
     * What a restart did to the limiter's keys: the process that stopped wrote them, the one that
     * started read them.
     */
    private static void restarted(PersistenceReading.Server was, PersistenceReading.Server server) {
        String restarted = "Redis restarted" + where(server) + " (a new run_id, up " + server.uptimeSeconds()
                + " s)";
        String persistence = server.persistence();
        if (PersistenceReading.NONE.equals(was.persistence()) || PersistenceReading.NONE.equals(persistence)) {
            logger.warn(restarted + " without persistence: the bans and counts from before the restart were lost, "
                    + LOST + " " + REMEDY);
        }
        else if (PersistenceReading.UNKNOWN.equals(was.persistence())
                || PersistenceReading.UNKNOWN.equals(persistence)) {
            logger.info(restarted + "; whether it reloaded the bans and counts is unknown, as its RDB save points "
                    + "could not be read");
        }
        else if (PersistenceReading.RDB.equals(persistence)) {
            logger.info(restarted + " and reloaded its data from its last RDB snapshot (rdb): bans and counts "
                    + "written after that snapshot were lost");
        }
        else {
            logger.info(restarted + " and reloaded its data from its append-only file (aof): bans and counts were "
                    + "kept, up to its last write to disk");
        }
    }

    private static String where(PersistenceReading.Server server) {
        return server.node().isEmpty() ? "" : " on " + server.node();
    }

}
