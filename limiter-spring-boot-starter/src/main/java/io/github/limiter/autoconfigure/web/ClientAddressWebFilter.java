package io.github.limiter.autoconfigure.web;

import io.github.limiter.interceptor.RateLimitAdvisor;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Puts the client's address of each Spring WebFlux request where {@code #clientIp} reads it: the
 * request's Reactor context, under {@link RateLimitAdvisor#CLIENT_IP_ATTRIBUTE}, within which the
 * keys of limited reactive methods are resolved when they are subscribed to. The address is the
 * request's remote address as the server resolved it.
 */
final class ClientAddressWebFilter implements WebFilter, Ordered {

    private final int ipv6Prefix;

    ClientAddressWebFilter(int ipv6Prefix) {
        this.ipv6Prefix = ipv6Prefix;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String address = ClientAddress.of(exchange.getRequest().getRemoteAddress(), this.ipv6Prefix);
        if (address == null) {
            return chain.filter(exchange);
        }
        return chain.filter(exchange)
            .contextWrite((context) -> context.put(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, address));
    }

    @Override
    public int getOrder() {
        // early, so that every filter and handler after it runs within the context it writes
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

}
