package io.github.limiter.autoconfigure.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * What one reading of the limiter's Redis says about persistence: whether each master writes its
 * data to disk, so that the limiter's bans and counts survive its restart, and which process
 * answered, to tell a restart. AOF comes from {@code INFO} ({@code aof_enabled}); the RDB save
 * points only from {@code CONFIG GET save}, which ACLs and managed services may refuse: with AOF
 * off, a Redis that refused it may or may not snapshot, and its persistence is unknown.
 *
 * <p>Over Redis Cluster, each master is read (see {@link InfoNode}), and the worst comes first: one
 * that keeps nothing, then one whose persistence is unknown, then RDB snapshots only, then AOF.
 *
 * @param servers the masters, worst first
 * @param savePointsUnread why the save points are unknown (in words for a log line), or
 * {@code null} if Redis told them
 */
record PersistenceReading(List<Server> servers, @Nullable String savePointsUnread) {

    /** An append-only file: a restart loses what was not yet written to it (a second at most, {@code everysec}). */
    static final String AOF = "aof";

    /** RDB snapshots only: a restart loses everything since the last snapshot. */
    static final String RDB = "rdb";

    /** Both: Redis reloads the append-only file. */
    static final String AOF_AND_RDB = "aof+rdb";

    /** Nothing on disk: a restart loses everything. */
    static final String NONE = "none";

    /** AOF off, and the save points could not be read. */
    static final String UNKNOWN = "unknown";

    private static final List<String> WORST_FIRST = List.of(NONE, UNKNOWN, RDB, AOF, AOF_AND_RDB);

    /**
     * Reads persistence from an {@code INFO} reply (its default sections) and the reply to
     * {@code CONFIG GET save}, of one server or, prefixed per node, of a cluster.
     * @param savePoints the reply to {@code CONFIG GET save}, or {@code null} if Redis refused it
     * @param savePointsUnread why Redis refused it, if it did
     * @throws IllegalStateException if the reply has no {@code aof_enabled}
     */
    static PersistenceReading of(Properties info, @Nullable Properties savePoints, @Nullable String savePointsUnread) {
        List<Server> servers = InfoNode.masters(info, "aof_enabled")
            .stream()
            .map(node -> new Server(node.name(), node.get("run_id", ""),
                    Long.parseLong(node.get("uptime_in_seconds", "0")), node.get("master_replid", ""),
                    node.get("master_replid2", ""), "1".equals(node.get("aof_enabled")),
                    (savePoints != null) ? node.get(savePoints, "save") : null))
            .sorted(Comparator.comparing((Server server) -> WORST_FIRST.indexOf(server.persistence()))
                .thenComparing(Server::node))
            .toList();
        if (servers.isEmpty()) {
            throw new IllegalStateException("Redis did not say whether AOF is on (aof_enabled of INFO persistence)");
        }
        if (servers.stream().allMatch(server -> server.savePoints() != null)) {
            return new PersistenceReading(servers, null);
        }
        return new PersistenceReading(servers, (savePoints != null)
                ? "Redis's answer to CONFIG GET save named no save points" : savePointsUnread);
    }

    /** The master most likely to lose the limiter's keys on a restart. */
    Server worst() {
        return this.servers.get(0);
    }

    /** The worst master's persistence: {@code aof}, {@code rdb}, {@code aof+rdb}, {@code none} or {@code unknown}. */
    String persistence() {
        return worst().persistence();
    }

    /**
     * One master's persistence, and the process it ran in.
     *
     * @param node its {@code host:port} over Redis Cluster, else empty
     * @param runId its {@code run_id}: a new one each time the server starts
     * @param uptimeSeconds how long it had run when read
     * @param replicationId its {@code master_replid}: the history of the data set it serves
     * @param previousReplicationId its {@code master_replid2}: the history it served before a
     * replica's promotion made it a master, which is its old master's {@code master_replid}
     * @param aof whether it writes an append-only file
     * @param savePoints its RDB save points ({@code save}), empty for none, {@code null} if unknown
     */
    record Server(String node, String runId, long uptimeSeconds, String replicationId, String previousReplicationId,
            boolean aof, @Nullable String savePoints) {

        /** {@code aof}, {@code rdb}, {@code aof+rdb}, {@code none} or {@code unknown}. */
        String persistence() {
            boolean snapshots = this.savePoints != null && !this.savePoints.isEmpty();
            if (this.aof) {
                return snapshots ? AOF_AND_RDB : AOF;
            }
            if (this.savePoints == null) {
                return UNKNOWN;
            }
            return snapshots ? RDB : NONE;
        }

        /**
         * Whether this server is the one read {@code elapsedSeconds} earlier started again: the
         * same node, another process, started since. A replica that a failover promoted, behind the
         * same connection (Sentinel), is not a restart: it carries on the earlier master's
         * replication history as its previous one, and had usually been running for longer.
         */
        boolean restartedSince(Server earlier, long elapsedSeconds) {
            return this.node.equals(earlier.node) && !this.runId.isEmpty() && !earlier.runId.isEmpty()
                    && !this.runId.equals(earlier.runId) && this.uptimeSeconds <= elapsedSeconds + 1
                    && !promotedFrom(earlier);
        }

        private boolean promotedFrom(Server earlier) {
            return !earlier.replicationId.isEmpty() && this.previousReplicationId.equals(earlier.replicationId);
        }

    }

}
