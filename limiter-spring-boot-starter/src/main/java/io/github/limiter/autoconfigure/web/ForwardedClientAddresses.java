package io.github.limiter.autoconfigure.web;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.github.limiter.LimitDescription;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.interceptor.RateLimitAdvisor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.core.env.Environment;

/**
 * Whether {@code #clientIp} is an address a client can choose, said at start where a limit keys on
 * it. With {@code server.forward-headers-strategy=native} (set, or the default on a cloud platform
 * that forwards), Tomcat takes the client's address from {@code X-Forwarded-For} when the request
 * comes from one of {@code server.tomcat.remoteip.internal-proxies}, whose default trusts every
 * private address range; so anything on those ranges that passes the header on (another service, a
 * proxy that appends to it) gives a limit keyed on {@code #clientIp} any address it writes. With
 * {@code limiter.web.trusted-proxies}, the limiter reads the headers itself, from the connection's
 * peer: a server that rewrites the peer from them first ({@code native} or {@code framework})
 * contradicts it.
 */
final class ForwardedClientAddresses {

    private static final Pattern CLIENT_IP = Pattern.compile("#clientIp\\b");

    private static final Log logger = LogFactory.getLog(ForwardedClientAddresses.class);

    private ForwardedClientAddresses() {
    }

    /**
     * Logs the warning, if there is one, once every singleton is made: the advisor has resolved
     * the limits of them all.
     * @param environment the application's
     * @param advisor the advisor, if there is one
     * @param properties the limiter's properties
     * @param tomcat whether the server is Tomcat
     * @return what to register as a bean
     */
    static SmartInitializingSingleton atStart(Environment environment, ObjectProvider<RateLimitAdvisor> advisor,
            ObjectProvider<LimiterProperties> properties, boolean tomcat) {
        return () -> advisor.ifUnique((limits) -> {
            LimiterProperties settings = properties.getIfAvailable();
            boolean trusted = settings != null && !settings.getWeb().getTrustedProxies().isEmpty();
            String warning = warning(environment, limits.limits(), tomcat, trusted);
            if (warning != null) {
                logger.warn(warning);
            }
        });
    }

    /**
     * Returns the warning for the limits and the environment, or {@code null} where there is none.
     * @param environment the application's
     * @param limits the limits the advisor resolved
     * @param tomcat whether the server is Tomcat
     * @param limiterTrustsProxies whether {@code limiter.web.trusted-proxies} is set
     * @return the log line, or {@code null}
     */
    static @Nullable String warning(Environment environment, List<LimitDescription> limits, boolean tomcat,
            boolean limiterTrustsProxies) {
        String strategy = strategy(environment);
        List<String> keyedOnClientIp = limits.stream()
            .filter((limit) -> CLIENT_IP.matcher(limit.key()).find())
            .map(LimitDescription::limitId)
            .distinct()
            .toList();
        if (keyedOnClientIp.isEmpty()) {
            return null;
        }
        if (limiterTrustsProxies) {
            return strategy.equals("none") ? null : "Rate limits " + keyedOnClientIp + " key on #clientIp, "
                    + "which limiter.web.trusted-proxies finds from the connection's peer, but "
                    + "server.forward-headers-strategy=" + strategy + " has the server replace the peer with a "
                    + "forwarded address first, so the limiter walks from an address that is not the peer's. Leave "
                    + "server.forward-headers-strategy unset (none) where limiter.web.trusted-proxies is set";
        }
        if (!tomcat || !strategy.equals("native")
                || environment.containsProperty("server.tomcat.remoteip.internal-proxies")) {
            return null;
        }
        return "Rate limits " + keyedOnClientIp + " key on #clientIp with server.forward-headers-strategy=native, and "
                + "Tomcat takes X-Forwarded-For from its default internal proxies, which are every private address "
                + "range (10/8, 172.16/12, 192.168/16, 100.64/10, 169.254/16, 127/8 and IPv6's kin): a client there, "
                + "or a proxy there that passes the header on, chooses the address a limit counts. Set "
                + "server.tomcat.remoteip.internal-proxies to a regular expression that matches your own proxies' "
                + "addresses and no others (see \"Keys by client address\" in docs/operations.md)";
    }

    /** The server's strategy, lower case: {@code native}, {@code framework} or {@code none}. */
    private static String strategy(Environment environment) {
        String strategy = environment.getProperty("server.forward-headers-strategy");
        if (strategy != null) {
            return strategy.trim().toLowerCase(Locale.ROOT);
        }
        // Spring Boot's default where the platform forwards (ServerProperties#getForwardHeadersStrategy)
        CloudPlatform platform = CloudPlatform.getActive(environment);
        return (platform != null && platform.isUsingForwardHeaders()) ? "native" : "none";
    }

}
