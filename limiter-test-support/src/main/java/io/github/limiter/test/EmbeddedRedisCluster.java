package io.github.limiter.test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * A real Redis Cluster of masters on free loopback ports, started from the executable of
 * {@link EmbeddedRedis}: each server in cluster mode, the 16384 slots split evenly between them,
 * the nodes introduced to each other, and the cluster reporting {@code ok} before this returns.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;

    private final List<EmbeddedRedis> masters;

    private final Path directory;

    private EmbeddedRedisCluster(List<EmbeddedRedis> masters, Path directory) {
        this.masters = masters;
        this.directory = directory;
    }

    /**
     * Starts a cluster.
     * @param size how many masters, at least 3
     * @return the running cluster
     */
    public static EmbeddedRedisCluster start(int size) {
        Path directory = TempDirectory.create("limiter-cluster-");
        List<EmbeddedRedis> masters = new ArrayList<>();
        EmbeddedRedisCluster cluster = new EmbeddedRedisCluster(masters, directory);
        try {
            for (int i = 0; i < size; i++) {
                masters.add(EmbeddedRedis.startWith("cluster-enabled yes", "cluster-node-timeout 2000",
                        "cluster-config-file nodes-" + i + ".conf", "dir " + directory.toAbsolutePath()));
            }
            for (int i = 0; i < size; i++) {
                int from = i * SLOTS / size;
                int to = (i + 1) * SLOTS / size;
                int node = i;
                cluster.withNode(node, commands -> commands.clusterAddSlots(IntStream.range(from, to).toArray()));
            }
            for (int i = 1; i < size; i++) {
                int port = masters.get(i).port();
                cluster.withNode(0, commands -> commands.clusterMeet("127.0.0.1", port));
            }
            cluster.awaitOk();
            return cluster;
        }
        catch (RuntimeException ex) {
            cluster.close();
            throw ex;
        }
    }

    /**
     * Returns the nodes, as {@code spring.data.redis.cluster.nodes} takes them.
     * @return {@code host:port} of every master
     */
    public List<String> nodes() {
        return this.masters.stream().map(master -> master.host() + ":" + master.port()).toList();
    }

    /**
     * Returns the masters.
     * @return the servers
     */
    public List<EmbeddedRedis> masters() {
        return this.masters;
    }

    /**
     * Runs Redis commands against one node directly.
     * @param node the node's index
     * @param work the commands
     * @param <T> the result type
     * @return the work's result
     */
    public <T> T withNode(int node, Function<RedisCommands<String, String>, T> work) {
        return this.masters.get(node).withCommands(work);
    }

    private void awaitOk() {
        // the nodes gossip every 100 ms or so
        Poll.until(this::isOk, "the embedded Redis Cluster to become ready");
    }

    private boolean isOk() {
        for (int i = 0; i < this.masters.size(); i++) {
            String info = withNode(i, RedisCommands::clusterInfo);
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + this.masters.size())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Stops every node and deletes their cluster files.
     */
    @Override
    public void close() {
        this.masters.forEach(EmbeddedRedis::close);
        TempDirectory.delete(this.directory);
    }

}
