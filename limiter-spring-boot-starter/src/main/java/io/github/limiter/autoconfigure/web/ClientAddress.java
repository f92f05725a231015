package io.github.limiter.autoconfigure.web;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import io.github.limiter.autoconfigure.internal.TrustedProxies;
import org.jspecify.annotations.Nullable;

/**
 * The client's address as {@code #clientIp} gives it: the address the server resolved (from the
 * headers of the proxies it trusts, with {@code server.forward-headers-strategy=native}), an IPv4
 * address as it is, an IPv6 address as its network of {@code limiter.web.client-ipv6-prefix}
 * bits, written {@code 2001:db8:1:2:0:0:0:0/64}.
 */
final class ClientAddress {

    private ClientAddress() {
    }

    static @Nullable String of(@Nullable InetSocketAddress remote, int ipv6Prefix) {
        if (remote == null) {
            return null;
        }
        InetAddress address = remote.getAddress();
        return (address != null) ? of(address, ipv6Prefix) : literal(remote.getHostString(), ipv6Prefix);
    }

    /** The address of a servlet request's {@code getRemoteAddr()}: a literal, read without a lookup. */
    static @Nullable String literal(@Nullable String remote, int ipv6Prefix) {
        if (remote == null || remote.isBlank()) {
            return null;
        }
        InetAddress address = TrustedProxies.literal(remote);
        return (address != null) ? of(address, ipv6Prefix) : remote;
    }

    static String of(InetAddress address, int ipv6Prefix) {
        if (!(address instanceof Inet6Address) || ipv6Prefix >= 128) {
            return address.getHostAddress();
        }
        byte[] bytes = address.getAddress();
        for (int bit = ipv6Prefix; bit < 128; bit++) {
            bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        try {
            return InetAddress.getByAddress(bytes).getHostAddress() + "/" + ipv6Prefix;
        }
        catch (UnknownHostException ex) {
            throw new IllegalStateException("16 bytes are an IPv6 address", ex);
        }
    }

}
