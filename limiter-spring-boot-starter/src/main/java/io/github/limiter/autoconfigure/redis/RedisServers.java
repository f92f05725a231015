package io.github.limiter.autoconfigure.redis;

import java.util.Collection;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;

/**
 * Where a {@link RedisConfiguration} points, in words for log lines and messages: host and port,
 * socket, the master's name and its sentinels, or the nodes of a cluster or of a static
 * master/replica set-up; and the Redis user it signs in as.
 */
final class RedisServers {

    private RedisServers() {
    }

    /** Such as {@code Redis at 10.0.0.5:6379} or {@code Redis master 'mymaster' of sentinels s1:26379, s2:26379}. */
    static String describe(RedisConfiguration servers) {
        if (servers instanceof RedisStandaloneConfiguration standalone) {
            return "Redis at " + new RedisNode(standalone.getHostName(), standalone.getPort()).asString()
                    + database(standalone.getDatabase());
        }
        if (servers instanceof RedisSocketConfiguration socket) {
            return "Redis on unix socket " + socket.getSocket() + database(socket.getDatabase());
        }
        if (servers instanceof RedisSentinelConfiguration sentinel) {
            String master = (sentinel.getMaster() != null) ? sentinel.getMaster().getName() : null;
            return "Redis master '" + master + "' of sentinels " + nodes(sentinel.getSentinels())
                    + database(sentinel.getDatabase());
        }
        if (servers instanceof RedisClusterConfiguration cluster) {
            return "Redis Cluster nodes " + nodes(cluster.getClusterNodes());
        }
        if (servers instanceof RedisStaticMasterReplicaConfiguration masterReplica) {
            return "Redis master/replica nodes " + nodes(masterReplica.getNodes()
                .stream()
                .map(node -> new RedisNode(node.getHostName(), node.getPort()))
                .toList()) + database(masterReplica.getDatabase());
        }
        if (servers instanceof RedisConfiguration.WithHostAndPort hostAndPort) {
            return "Redis at " + new RedisNode(hostAndPort.getHostName(), hostAndPort.getPort()).asString();
        }
        return "Redis of a " + servers.getClass().getSimpleName();
    }

    /** The user the servers are signed in to as, if one is named. */
    static @Nullable String user(RedisConfiguration servers) {
        return (servers instanceof RedisConfiguration.WithAuthentication authentication) ? authentication.getUsername()
                : null;
    }

    private static String nodes(Collection<? extends RedisNode> nodes) {
        return nodes.stream().map(RedisNode::asString).collect(Collectors.joining(", "));
    }

    private static String database(int database) {
        return (database != 0) ? " (database " + database + ")" : "";
    }

}
