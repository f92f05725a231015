package io.github.limiter.autoconfigure.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The proxies whose forwarding headers {@code #clientIp} believes ({@code limiter.web.trusted-proxies}):
 * addresses and CIDR ranges, IPv4 and IPv6. The client of a request is found from the right: the
 * connection's peer, then each address of {@code Forwarded} (or, without it, {@code X-Forwarded-For})
 * from the last to the first, skipping trusted ones; the first untrusted address is the client.
 * What a client writes itself sits left of the address its first trusted proxy appended, so it is
 * never reached; only where every address is trusted is the leftmost taken, as Tomcat's
 * {@code RemoteIpValve} does.
 */
public final class TrustedProxies {

    /** None: the peer is always the client. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<Range> ranges;

    private TrustedProxies(List<Range> ranges) {
        this.ranges = ranges;
    }

    /**
     * Parses addresses and CIDR ranges, such as {@code 10.0.0.0/8}, {@code 192.0.2.7} or
     * {@code 2001:db8::/32}.
     * @param entries the entries; none trusts no proxy
     * @return the trusted proxies
     * @throws IllegalArgumentException naming an entry that is neither an address nor a range
     */
    public static TrustedProxies of(List<String> entries) {
        List<Range> ranges = new ArrayList<>(entries.size());
        for (String entry : entries) {
            ranges.add(Range.of(entry));
        }
        return ranges.isEmpty() ? NONE : new TrustedProxies(List.copyOf(ranges));
    }

    /**
     * Says whether no proxy is trusted, and the peer is the client.
     * @return {@code true} if none is
     */
    public boolean isEmpty() {
        return this.ranges.isEmpty();
    }

    /**
     * Returns the client's address of a request.
     * @param peer the connection's peer, as a literal
     * @param forwarded the values of the request's {@code Forwarded} headers, in order
     * @param forwardedFor the values of its {@code X-Forwarded-For} headers, in order
     * @return the client's address, or the text a trusted proxy wrote for it (such as
     * {@code unknown}); {@code null} without a peer
     */
    public @Nullable String client(@Nullable String peer, List<String> forwarded, List<String> forwardedFor) {
        if (peer == null || !trusts(peer)) {
            return peer;
        }
        List<String> hops = !forwarded.isEmpty() ? forwardedNodes(forwarded) : forwardedForNodes(forwardedFor);
        for (int i = hops.size() - 1; i >= 0; i--) {
            if (!trusts(hops.get(i))) {
                return hops.get(i);
            }
        }
        // every hop is a proxy of ours: the first of them asked
        return hops.isEmpty() ? peer : hops.get(0);
    }

    /**
     * Parses an IP literal, such as {@code 192.0.2.7}, {@code 2001:db8::1} or {@code [2001:db8::1]},
     * without a name look-up: the one parse of addresses of the starter's web code.
     * @param text the text
     * @return the address, or {@code null} for text that is no IP literal
     */
    public static @Nullable InetAddress literal(@Nullable String text) {
        if (text == null) {
            return null;
        }
        String candidate = text.strip().toLowerCase(Locale.ROOT);
        if (candidate.length() > 2 && candidate.startsWith("[") && candidate.endsWith("]")) {
            candidate = candidate.substring(1, candidate.length() - 1);
        }
        if (candidate.isEmpty() || candidate.length() > 45) {
            return null;
        }
        boolean ipv6 = candidate.indexOf(':') >= 0;
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            boolean allowed = (c >= '0' && c <= '9') || c == '.' || (ipv6 && (c == ':' || (c >= 'a' && c <= 'f')));
            if (!allowed) {
                return null;
            }
        }
        if (!ipv6 && candidate.chars().filter((c) -> c == '.').count() != 3) {
            return null;
        }
        try {
            // a literal is parsed, never looked up
            return InetAddress.getByName(candidate);
        }
        catch (UnknownHostException ex) {
            return null;
        }
    }

    private boolean trusts(String node) {
        InetAddress address = literal(node);
        if (address == null) {
            return false;
        }
        for (Range range : this.ranges) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> forwardedForNodes(List<String> values) {
        List<String> nodes = new ArrayList<>();
        for (String value : values) {
            for (String node : value.split(",")) {
                if (!node.isBlank()) {
                    nodes.add(node(node));
                }
            }
        }
        return nodes;
    }

    /** The {@code for} of each element of {@code Forwarded} (RFC 7239); {@code unknown} where none. */
    private static List<String> forwardedNodes(List<String> values) {
        List<String> nodes = new ArrayList<>();
        for (String value : values) {
            for (String element : value.split(",")) {
                String node = "unknown";
                for (String pair : element.split(";")) {
                    int equals = pair.indexOf('=');
                    if (equals > 0 && pair.substring(0, equals).strip().equalsIgnoreCase("for")) {
                        node = node(pair.substring(equals + 1));
                    }
                }
                nodes.add(node);
            }
        }
        return nodes;
    }

    /** A node without quotes, brackets or port: {@code "[2001:db8::1]:4711"} is {@code 2001:db8::1}. */
    private static String node(String text) {
        String node = text.strip();
        if (node.length() >= 2 && node.startsWith("\"") && node.endsWith("\"")) {
            node = node.substring(1, node.length() - 1).strip();
        }
        if (node.startsWith("[")) {
            int end = node.indexOf(']');
            return (end > 0) ? node.substring(1, end) : node;
        }
        int colon = node.indexOf(':');
        // an IPv4 address with a port; an IPv6 address has more than one colon
        return (colon > 0 && node.indexOf(':', colon + 1) < 0) ? node.substring(0, colon) : node;
    }

    /** An address and the number of its leading bits a range fixes. */
    private record Range(byte[] network, int bits) {

        static Range of(String entry) {
            String text = entry.strip();
            int slash = text.indexOf('/');
            InetAddress address = TrustedProxies.literal((slash >= 0) ? text.substring(0, slash) : text);
            if (address == null) {
                throw invalid(entry, "is not an IP address");
            }
            int length = address.getAddress().length * 8;
            int bits = length;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(text.substring(slash + 1));
                }
                catch (NumberFormatException ex) {
                    throw invalid(entry, "has no prefix length after '/'");
                }
                if (bits < 0 || bits > length) {
                    throw invalid(entry, "has a prefix length outside 0 to " + length);
                }
            }
            return new Range(address.getAddress(), bits);
        }

        boolean contains(InetAddress address) {
            byte[] bytes = address.getAddress();
            if (bytes.length != this.network.length) {
                return false;
            }
            for (int bit = 0; bit < this.bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((bytes[bit / 8] & mask) != (this.network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }

        private static IllegalArgumentException invalid(String entry, String problem) {
            return new IllegalArgumentException("limiter.web.trusted-proxies entry '" + entry + "' " + problem
                    + ": give addresses and CIDR ranges, such as 10.0.0.0/8, 192.0.2.7 or 2001:db8::/32");
        }

    }

}
