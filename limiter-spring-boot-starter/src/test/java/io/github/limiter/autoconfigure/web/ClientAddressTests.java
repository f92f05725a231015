package io.github.limiter.autoconfigure.web;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientAddressTests {

    @Test
    void anIpv4AddressIsTakenAsItIs() {
        assertThat(ClientAddress.literal("203.0.113.7", 64)).isEqualTo("203.0.113.7");
        assertThat(ClientAddress.of(new InetSocketAddress("198.51.100.1", 443), 64)).isEqualTo("198.51.100.1");
    }

    @Test
    void anIpv6AddressStandsForItsNetwork() {
        assertThat(ClientAddress.literal("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64)).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(ClientAddress.literal("2001:db8:1:2::1", 64)).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(ClientAddress.literal("[2001:db8:1:2::1]", 64)).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(ClientAddress.literal("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 48)).isEqualTo("2001:db8:1:0:0:0:0:0/48");
        assertThat(ClientAddress.literal("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 60)).isEqualTo("2001:db8:1:0:0:0:0:0/60");
        assertThat(ClientAddress.literal("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 128))
            .isEqualTo("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
        assertThat(ClientAddress.of(new InetSocketAddress("::1", 443), 64)).isEqualTo("0:0:0:0:0:0:0:0/64");
    }

    @Test
    void anIpv4AddressMappedIntoIpv6IsItsIpv4Address() {
        assertThat(ClientAddress.literal("::ffff:203.0.113.7", 64)).isEqualTo("203.0.113.7");
    }

    @Test
    void whatIsNoAddressIsTakenAsItIsWithoutALookup() {
        assertThat(ClientAddress.literal("proxy.internal", 64)).isEqualTo("proxy.internal");
        assertThat(ClientAddress.literal("", 64)).isNull();
        assertThat(ClientAddress.literal(null, 64)).isNull();
        assertThat(ClientAddress.of((InetSocketAddress) null, 64)).isNull();
        assertThat(ClientAddress.of(InetSocketAddress.createUnresolved("proxy.internal", 80), 64))
            .isEqualTo("proxy.internal");
    }

}
