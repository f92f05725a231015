package io.github.limiter.autoconfigure.web;

import java.util.Collections;

import io.github.limiter.autoconfigure.internal.TrustedProxies;
import io.github.limiter.interceptor.RateLimitAdvisor;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Puts the client's address of each Spring MVC request where {@code #clientIp} reads it: a
 * request attribute, {@link RateLimitAdvisor#CLIENT_IP_ATTRIBUTE}, which limited calls made while
 * the request is handled find through its thread. The address is the servlet container's
 * {@code getRemoteAddr()}: with {@code server.forward-headers-strategy=native}, the client's as the
 * proxies the container trusts report it ({@code server.tomcat.remoteip.internal-proxies}), and
 * never what a client writes into a forwarding header itself; with {@code limiter.web.trusted-proxies},
 * the client as those proxies report it ({@link TrustedProxies}).
 */
final class ClientAddressInterceptor implements HandlerInterceptor {

    private final int ipv6Prefix;

    private final TrustedProxies trustedProxies;

    ClientAddressInterceptor(int ipv6Prefix, TrustedProxies trustedProxies) {
        this.ipv6Prefix = ipv6Prefix;
        this.trustedProxies = trustedProxies;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        address(request, this.ipv6Prefix, this.trustedProxies);
        return true;
    }

    /**
     * The request's client address, found once per request and kept in its
     * {@link RateLimitAdvisor#CLIENT_IP_ATTRIBUTE}: a rule's filter finds it before the handler.
     */
    static @Nullable String address(HttpServletRequest request, int ipv6Prefix, TrustedProxies trustedProxies) {
        if (request.getAttribute(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE) instanceof String found) {
            return found;
        }
        String peer = request.getRemoteAddr();
        String client = trustedProxies.isEmpty() ? peer : trustedProxies.client(peer,
                Collections.list(request.getHeaders("Forwarded")),
                Collections.list(request.getHeaders("X-Forwarded-For")));
        String address = ClientAddress.literal(client, ipv6Prefix);
        if (address != null) {
            request.setAttribute(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, address);
        }
        return address;
    }

}
