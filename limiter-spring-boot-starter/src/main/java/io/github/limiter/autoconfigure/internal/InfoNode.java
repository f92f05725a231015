package io.github.limiter.autoconfigure.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * One server's part of an {@code INFO} reply: the whole reply of one server or, over Redis
 * Cluster, where each property is prefixed with a node's {@code host:port} and a dot, that node's
 * properties. {@code CONFIG GET} answers under the same prefixes.
 *
 * @param name the node's {@code host:port} over Redis Cluster, else empty
 * @param info the whole reply
 */
record InfoNode(String name, Properties info) {

    /**
     * The servers of a reply that tell {@code property}: the masters, where the limiter's keys are
     * written; every server where only replicas answered (a master/replica set-up that reads from
     * replicas), since their reading is all there is. Ordered by name.
     */
    static List<InfoNode> masters(Properties info, String property) {
        List<InfoNode> nodes = new ArrayList<>();
        for (String name : info.stringPropertyNames()) {
            if (name.equals(property)) {
                nodes.add(new InfoNode("", info));
            }
            else if (name.endsWith("." + property)) {
                nodes.add(new InfoNode(name.substring(0, name.length() - property.length() - 1), info));
            }
        }
        nodes.sort(Comparator.comparing(InfoNode::name));
        List<InfoNode> masters = nodes.stream().filter(InfoNode::master).toList();
        return masters.isEmpty() ? nodes : masters;
    }

    /** The node's value of a property, stripped, or {@code null} if it has none. */
    @Nullable String get(String property) {
        return get(this.info, property);
    }

    /** The node's value of a property, stripped, or {@code fallback}. */
    String get(String property, String fallback) {
        String value = get(property);
        return (value != null) ? value : fallback;
    }

    /** The node's value in another reply with the same prefixes, such as {@code CONFIG GET}'s. */
    @Nullable String get(Properties reply, String property) {
        String value = reply.getProperty(this.name.isEmpty() ? property : this.name + "." + property);
        return (value != null) ? value.strip() : null;
    }

    private boolean master() {
        return !"slave".equals(get("role"));
    }

}
