package io.github.limiter.autoconfigure;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.autoconfigure.internal.TrustedProxies;
import io.github.limiter.interceptor.BlankKey;
import org.jspecify.annotations.Nullable;

/**
 * HTTP answers for calls over a limit.
 *
 * @since 0.1.0
 */
public class LimiterWebProperties {

    /**
     * HTTP status for calls rejected because their key is banned, such as 403. Calls over a
     * limit without a ban always get 429.
     */
    private int banStatus = 429;

    /**
     * Rate-limit headers on responses of limited endpoints, allowed and rejected alike: the IETF
     * RateLimit-Policy and RateLimit fields, the X-RateLimit-* fields, both, or none.
     */
    private Headers headers = Headers.BOTH;

    /**
     * Base URI of the problem types of refused calls, which end in rate-limit-exceeded, banned
     * or limiter-unavailable. Point it at your own documentation of them; it must be absolute
     * and end with '/'. Defaults to https://limiter.github.io/problems/.
     */
    private URI problemTypeBase = URI.create("https://limiter.github.io/problems/");

    /**
     * Prefix length of the network an IPv6 client address stands for in #clientIp: 64, the
     * default, makes every address of one /64 (what one host or home is given) one key, so a
     * client cannot rotate through its block to escape a limit; 128 keys each address.
     */
    private int clientIpv6Prefix = 64;

    /**
     * Proxies whose X-Forwarded-For and Forwarded headers #clientIp believes: addresses and CIDR
     * ranges, IPv4 and IPv6, such as 10.0.0.0/8. When set, the client is found from the right,
     * starting at the connection's peer and skipping trusted addresses: the first untrusted one,
     * so an address a client writes itself is never taken. The same on Tomcat and Reactor Netty;
     * leave server.forward-headers-strategy unset (none) with it. Empty, the default: #clientIp is
     * the address the server resolved.
     */
    private List<String> trustedProxies = new ArrayList<>();

    /**
     * Limits on requests by URL, without an annotation, by rule name (the rule's limit id). Each
     * applies to the requests its paths and methods match, ahead of Spring Security's filter
     * chain (after it, if its key reads #principal), and limits as a @RateLimit does: inline
     * (window, max, alert-at, ban-for, ...) or by a policy of limiter.policies.
     */
    private Map<String, Rule> rules = new LinkedHashMap<>();

    public int getBanStatus() {
        return this.banStatus;
    }

    public void setBanStatus(int banStatus) {
        this.banStatus = banStatus;
    }

    public Headers getHeaders() {
        return this.headers;
    }

    public void setHeaders(Headers headers) {
        this.headers = headers;
    }

    public int getClientIpv6Prefix() {
        return this.clientIpv6Prefix;
    }

    /**
     * Sets the prefix length of the network an IPv6 client address stands for.
     * @param clientIpv6Prefix 1 to 128
     * @throws IllegalArgumentException if it is not
     */
    public void setClientIpv6Prefix(int clientIpv6Prefix) {
        if (clientIpv6Prefix < 1 || clientIpv6Prefix > 128) {
            throw new IllegalArgumentException("limiter.web.client-ipv6-prefix " + clientIpv6Prefix
                    + " must be 1 to 128: the prefix length of the network an IPv6 client stands for");
        }
        this.clientIpv6Prefix = clientIpv6Prefix;
    }

    public List<String> getTrustedProxies() {
        return this.trustedProxies;
    }

    /**
     * Sets the proxies whose forwarding headers {@code #clientIp} believes.
     * @param trustedProxies addresses and CIDR ranges
     * @throws IllegalArgumentException naming an entry that is neither
     */
    public void setTrustedProxies(List<String> trustedProxies) {
        TrustedProxies.of(trustedProxies);
        this.trustedProxies = new ArrayList<>(trustedProxies);
    }

    public Map<String, Rule> getRules() {
        return this.rules;
    }

    public void setRules(Map<String, Rule> rules) {
        this.rules = rules;
    }

    public URI getProblemTypeBase() {
        return this.problemTypeBase;
    }

    /**
     * Sets the base URI of the problem types of refused calls.
     * @param problemTypeBase an absolute URI ending with {@code '/'}, such as
     * {@code https://example.com/problems/}
     * @throws IllegalArgumentException if it is relative or does not end with {@code '/'}
     */
    public void setProblemTypeBase(URI problemTypeBase) {
        // The slug is appended, so without the '/' it would run into the last path segment.
        if (!problemTypeBase.isAbsolute() || !problemTypeBase.toString().endsWith("/")) {
            throw new IllegalArgumentException("limiter.web.problem-type-base '" + problemTypeBase
                    + "' must be an absolute URI ending with '/', such as 'https://example.com/problems/'");
        }
        this.problemTypeBase = problemTypeBase;
    }

    /**
     * A limit on the requests whose paths and methods match: its key read from the request, its
     * limit inline or from a policy.
     */
    public static class Rule extends LimiterPolicyProperties {

        /**
         * Path patterns of the requests the rule limits, in Spring's PathPattern syntax, such as
         * /login or /api/**; within the application, without its context path. Required.
         */
        private List<String> paths = new ArrayList<>();

        /**
         * HTTP methods the rule limits, such as POST. Empty, the default: every method.
         */
        private List<String> methods = new ArrayList<>();

        /**
         * SpEL key the rule counts requests by, over the request's variables: #clientIp, #path,
         * #method, #headers['Name'], #params['name'], #request and #principal (the authenticated
         * name). Blank, the default: one count shared by every request the rule matches.
         */
        private String key = "";

        /**
         * Name of the policy in limiter.policies the rule's limit is, instead of writing the limit
         * inline.
         */
        private String policy = "";

        /**
         * Permits each request takes: a whole number, or a SpEL expression over the request's
         * variables. Defaults to 1.
         */
        private String cost = "";

        /**
         * SpEL condition over the request's variables: only a request for which it is true is
         * limited by the rule, such as #headers['X-Internal'] == null. Blank, the default: every
         * request the rule matches.
         */
        private String condition = "";

        /**
         * What a request whose key is blank gets: reject (400) or skip (not counted). Defaults to
         * limiter.blank-key.
         */
        private @Nullable BlankKey blankKey;

        public List<String> getPaths() {
            return this.paths;
        }

        public void setPaths(List<String> paths) {
            this.paths = paths;
        }

        public List<String> getMethods() {
            return this.methods;
        }

        public void setMethods(List<String> methods) {
            this.methods = methods;
        }

        public String getKey() {
            return this.key;
        }

        public void setKey(String key) {
            this.key = key;
        }

        public String getPolicy() {
            return this.policy;
        }

        public void setPolicy(String policy) {
            this.policy = policy;
        }

        public String getCost() {
            return this.cost;
        }

        public void setCost(String cost) {
            this.cost = cost;
        }

        public String getCondition() {
            return this.condition;
        }

        public void setCondition(String condition) {
            this.condition = condition;
        }

        public @Nullable BlankKey getBlankKey() {
            return this.blankKey;
        }

        public void setBlankKey(@Nullable BlankKey blankKey) {
            this.blankKey = blankKey;
        }

    }

    /**
     * Which rate-limit headers responses carry.
     */
    public enum Headers {

        /** The IETF httpapi fields: {@code RateLimit-Policy} and {@code RateLimit}. */
        IETF,

        /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset}. */
        X_RATELIMIT,

        /** Both sets. */
        BOTH,

        /** No rate-limit headers. */
        NONE

    }

}
