package io.github.limiter.autoconfigure.web;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.github.limiter.LimitDescription;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.core.env.Environment;

/**
 * Whether {@code #clientIp} is an address a client can choose: with
 * {@code server.forward-headers-strategy=native} (set, or the default on a cloud platform that
 * forwards), Tomcat takes the client's address from {@code X-Forwarded-For} when the request comes
 * from one of {@code server.tomcat.remoteip.internal-proxies}, whose default trusts every private
 * address range; so anything on those ranges that passes the header on (another service, a proxy
 * that appends to it) gives a limit keyed on {@code #clientIp} any address it writes.
 */
final class ForwardedClientAddresses {

    private static final Pattern CLIENT_IP = Pattern.compile("#clientIp\\b");

    private ForwardedClientAddresses() {
    }

    /**
     * Returns the warning for the limits and the environment, or {@code null} where there is none.
     * @param environment the application's
     * @param limits the limits the advisor resolved
     * @return the log line, or {@code null}
     */
    static @Nullable String warning(Environment environment, List<LimitDescription> limits) {
        if (!forwardsNatively(environment) || environment.containsProperty("server.tomcat.remoteip.internal-proxies")) {
            return null;
        }
        List<String> keyedOnClientIp = limits.stream()
            .filter((limit) -> CLIENT_IP.matcher(limit.key()).find())
            .map(LimitDescription::limitId)
            .distinct()
            .toList();
        if (keyedOnClientIp.isEmpty()) {
            return null;
        }
        return "Rate limits " + keyedOnClientIp + " key on #clientIp with server.forward-headers-strategy=native, and "
                + "Tomcat takes X-Forwarded-For from its default internal proxies, which are every private address "
                + "range (10/8, 172.16/12, 192.168/16, 100.64/10, 169.254/16, 127/8 and IPv6's kin): a client there, "
                + "or a proxy there that passes the header on, chooses the address a limit counts. Set "
                + "server.tomcat.remoteip.internal-proxies to a regular expression that matches your own proxies' "
                + "addresses and no others (see \"Keys by client address\" in docs/operations.md)";
    }

    private static boolean forwardsNatively(Environment environment) {
        String strategy = environment.getProperty("server.forward-headers-strategy");
        if (strategy != null) {
            return strategy.trim().toLowerCase(Locale.ROOT).equals("native");
        }
        // Spring Boot's default where the platform forwards (ServerProperties#getForwardHeadersStrategy)
        CloudPlatform platform = CloudPlatform.getActive(environment);
        return platform != null && platform.isUsingForwardHeaders();
    }

}
