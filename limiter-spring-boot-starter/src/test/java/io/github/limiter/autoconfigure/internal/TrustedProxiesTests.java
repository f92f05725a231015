package io.github.limiter.autoconfigure.internal;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How {@code limiter.web.trusted-proxies} finds the client: from the right, skipping trusted
 * addresses, so that what a client writes itself is never taken.
 */
class TrustedProxiesTests {

    private final TrustedProxies proxies = TrustedProxies.of(List.of("10.0.0.0/8", "192.0.2.7", "2001:db8::/32"));

    @Test
    void aPeerThatIsNoTrustedProxyIsTheClientWhateverItForwards() {
        assertThat(this.proxies.client("198.51.100.1", List.of(), List.of("203.0.113.9"))).isEqualTo("198.51.100.1");
        assertThat(this.proxies.client("2001:db9::1", List.of("for=203.0.113.9"), List.of())).isEqualTo("2001:db9::1");
    }

    @Test
    void theFirstUntrustedAddressFromTheRightIsTheClientAndAForgedLeftmostOneIsNeverReached() {
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of("6.6.6.6, 203.0.113.9"))).isEqualTo("203.0.113.9");
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of("6.6.6.6", "203.0.113.9, 192.0.2.7")))
            .as("header lines in order, a trusted hop skipped")
            .isEqualTo("203.0.113.9");
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of("203.0.113.9:4711"))).as("a port dropped")
            .isEqualTo("203.0.113.9");
    }

    @Test
    void forwardedIsReadBeforeXForwardedFor() {
        assertThat(this.proxies.client("10.1.2.3",
                List.of("for=6.6.6.6;proto=https, for=\"[2001:db9::7]:4711\";by=10.0.0.1", "for=192.0.2.7"),
                List.of("203.0.113.9"))).isEqualTo("2001:db9::7");
        assertThat(this.proxies.client("10.1.2.3", List.of("proto=https"), List.of())).as("an element without for")
            .isEqualTo("unknown");
    }

    @Test
    void whereEveryHopIsTrustedTheLeftmostIsTheClientAndWithoutHopsThePeer() {
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of("10.9.9.9, 192.0.2.7"))).isEqualTo("10.9.9.9");
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of())).isEqualTo("10.1.2.3");
    }

    @Test
    void textThatIsNoAddressIsNeverTrustedNorLookedUp() {
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of("localhost"))).isEqualTo("localhost");
        assertThat(this.proxies.client("10.1.2.3", List.of(), List.of("x".repeat(10_000))))
            .hasSize(10_000);
        assertThat(TrustedProxies.NONE.client("10.1.2.3", List.of(), List.of("203.0.113.9"))).isEqualTo("10.1.2.3");
    }

    @Test
    void anEntryThatIsNeitherAnAddressNorARangeIsRefusedNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> TrustedProxies.of(List.of("proxy.example.com")))
            .withMessage("limiter.web.trusted-proxies entry 'proxy.example.com' is not an IP address: give addresses "
                    + "and CIDR ranges, such as 10.0.0.0/8, 192.0.2.7 or 2001:db8::/32");
        assertThatIllegalArgumentException().isThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/33")))
            .withMessageContaining("'10.0.0.0/33' has a prefix length outside 0 to 32");
        assertThatIllegalArgumentException().isThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/x")))
            .withMessageContaining("has no prefix length after '/'");
    }

}
