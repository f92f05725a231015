package io.github.limiter.autoconfigure.web;

import java.net.InetSocketAddress;

import io.github.limiter.autoconfigure.internal.TrustedProxies;
import io.github.limiter.interceptor.RateLimitAdvisor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Puts the client's address of each Spring WebFlux request where {@code #clientIp} reads it: the
 * request's Reactor context, under {@link RateLimitAdvisor#CLIENT_IP_ATTRIBUTE}, within which the
 * keys of limited reactive methods are resolved when they are subscribed to. The address is the
 * request's remote address as the server resolved it or, with {@code limiter.web.trusted-proxies},
 * the client as those proxies report it ({@link TrustedProxies}).
 */
final class ClientAddressWebFilter implements WebFilter, Ordered {

    private final int ipv6Prefix;

    private final TrustedProxies trustedProxies;

    ClientAddressWebFilter(int ipv6Prefix, TrustedProxies trustedProxies) {
        this.ipv6Prefix = ipv6Prefix;
        this.trustedProxies = trustedProxies;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String address = address(exchange.getRequest(), this.ipv6Prefix, this.trustedProxies);
        if (address == null) {
            return chain.filter(exchange);
        }
        return chain.filter(exchange)
            .contextWrite((context) -> context.put(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, address));
    }

    /** The request's client address, as {@code #clientIp} gives it. */
    static @Nullable String address(ServerHttpRequest request, int ipv6Prefix, TrustedProxies trustedProxies) {
        if (trustedProxies.isEmpty()) {
            return ClientAddress.of(request.getRemoteAddress(), ipv6Prefix);
        }
        InetSocketAddress remote = request.getRemoteAddress();
        String peer = (remote == null) ? null
                : (remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString();
        HttpHeaders headers = request.getHeaders();
        return ClientAddress.literal(trustedProxies.client(peer, headers.getOrEmpty("Forwarded"),
                headers.getOrEmpty("X-Forwarded-For")), ipv6Prefix);
    }

    @Override
    public int getOrder() {
        // early, so that every filter and handler after it runs within the context it writes
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

}
