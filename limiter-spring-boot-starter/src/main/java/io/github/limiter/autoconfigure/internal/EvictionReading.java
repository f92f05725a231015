package io.github.limiter.autoconfigure.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Properties;

/**
 * What one {@code INFO} of the limiter's Redis says about eviction: the policy of the master most
 * likely to evict the limiter's keys, and how many keys the masters evicted.
 *
 * <p>Over Redis Cluster, {@code INFO} answers for every node (see {@link InfoNode}): replicas are
 * left out (they evict nothing of their own), and the worst master wins: one that evicts (a memory
 * limit and a policy other than {@code noeviction}) before one that does not, and a
 * {@code volatile-*} policy before an {@code allkeys-*} one, since every limiter key has a TTL and
 * is among the few candidates of a {@code volatile-*} policy. Where only replicas answered (a
 * master/replica set-up that reads from replicas), their reading is all there is.
 *
 * @param policy the {@code maxmemory_policy} of the worst master
 * @param maxmemoryBytes its {@code maxmemory}: 0 for no limit
 * @param maxmemory its {@code maxmemory} as Redis writes it for people, such as {@code 64.00M}
 * @param node its {@code host:port} over Redis Cluster, else empty
 * @param evictedKeys the {@code evicted_keys} of the masters, added up
 */
record EvictionReading(String policy, long maxmemoryBytes, String maxmemory, String node, long evictedKeys) {

    private static final String POLICY = "maxmemory_policy";

    static final String NO_EVICTION = "noeviction";

    private static final Comparator<EvictionReading> WORST_FIRST = Comparator
        .comparing((EvictionReading reading) -> !reading.evicts())
        .thenComparing(reading -> !reading.policy().startsWith("volatile-"))
        .thenComparing(EvictionReading::node);

    /** Whether Redis may evict the limiter's keys: it has a memory limit and a policy that evicts. */
    boolean evicts() {
        return this.maxmemoryBytes > 0 && !NO_EVICTION.equals(this.policy);
    }

    /**
     * Reads an {@code INFO} reply with the {@code memory}, {@code stats} and {@code replication}
     * sections (the default ones), of one server or, prefixed per node, of a cluster.
     * @throws IllegalStateException if the reply has no {@code maxmemory_policy}
     */
    static EvictionReading of(Properties info) {
        List<InfoNode> counted = InfoNode.masters(info, POLICY);
        long evicted = counted.stream().mapToLong(node -> Long.parseLong(node.get("evicted_keys", "0"))).sum();
        return counted.stream()
            .map(node -> {
                String maxmemory = node.get("maxmemory", "0");
                return new EvictionReading(node.get(POLICY, ""), Long.parseLong(maxmemory),
                        node.get("maxmemory_human", maxmemory), node.name(), evicted);
            })
            .min(WORST_FIRST)
            .orElseThrow(() -> new IllegalStateException("Redis did not say its maxmemory_policy (INFO memory)"));
    }

}
