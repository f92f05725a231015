package io.github.limiter.autoconfigure.web;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import io.github.limiter.autoconfigure.internal.TrustedProxies;
import io.github.limiter.interceptor.RequestRules;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Applies the rules of {@code limiter.web.rules} to Spring MVC requests, as a servlet filter: ahead
 * of Spring Security's filter chain, so that a refused login never reaches the password encoder;
 * or, for the rules that read {@code #principal}, after it. The rules that match a request are
 * decided together in one script call; a refused request is answered here, as a refused annotated
 * call is ({@link RateLimitExceptionHandler}), and an allowed one goes on with the rate-limit
 * headers set.
 */
final class RequestRuleFilter extends OncePerRequestFilter {

    private final UrlRules rules;

    private final RateLimitExceptionHandler answers;

    private final Headers headers;

    private final int ipv6Prefix;

    private final TrustedProxies trustedProxies;

    RequestRuleFilter(UrlRules rules, RateLimitExceptionHandler answers, Headers headers, int ipv6Prefix,
            TrustedProxies trustedProxies) {
        this.rules = rules;
        this.answers = answers;
        this.headers = headers;
        this.ipv6Prefix = ipv6Prefix;
        this.trustedProxies = trustedProxies;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        PathContainer path = RequestPath.parse(request.getRequestURI(), request.getContextPath())
            .pathWithinApplication();
        List<RequestRules.Rule> matching = this.rules.matching(path, HttpMethod.valueOf(request.getMethod()));
        if (matching.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        Principal principal = UrlRules.anyReads(matching, "principal") ? request.getUserPrincipal() : null;
        RequestRules.Request variables = new RequestRules.Request(
                ClientAddressInterceptor.address(request, this.ipv6Prefix, this.trustedProxies), path.value(),
                request.getMethod(), new FirstValues(request::getHeader, () -> headers(request)),
                new FirstValues((name) -> parameter(request, name), () -> params(request)), request,
                (principal != null) ? principal.getName() : null);
        List<LimitRequest> requests;
        try {
            requests = this.rules.requestRules().requests(matching, variables);
        }
        catch (BlankRateLimitKeyException ex) {
            answer(request, response, this.answers.blankKey(ex));
            return;
        }
        catch (RateLimitExpressionException ex) {
            answer(request, response, this.answers.expressionFailed(ex));
            return;
        }
        if (requests.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        HeaderFields fields = new HeaderFields(this.headers);
        Decision decision = this.rules.requestRules().decide(matching, requests, fields);
        fields.setOn(response);
        if (!decision.allowed()) {
            answer(request, response, this.answers.refused(new RateLimitExceededException(decision),
                    fields.written()));
            return;
        }
        chain.doFilter(request, response);
    }

    private static void answer(HttpServletRequest request, HttpServletResponse response,
            RateLimitExceptionHandler.Answer answer) throws IOException {
        response.setStatus(answer.status().value());
        answer.headers().forEach((name, values) -> values.forEach((value) -> response.setHeader(name, value)));
        try {
            // as Spring MVC's answer to an exception has it
            answer.problem().setInstance(URI.create(request.getRequestURI()));
        }
        catch (IllegalArgumentException ex) {
            // a path the servlet container let through that is no URI: the problem has no instance
        }
        byte[] body = ProblemJson.of(answer.problem()).getBytes(StandardCharsets.UTF_8);
        response.setContentType(ProblemJson.CONTENT_TYPE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static Map<String, String> headers(HttpServletRequest request) {
        Map<String, String> all = new LinkedHashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            all.put(name, request.getHeader(name));
        }
        return all;
    }

    /**
     * A parameter's first value, or {@code null}: also for one whose bytes are not text in the
     * request's encoding, which Tomcat refuses to decode (it ignores the parameter, and says so
     * by throwing the first time parameters are read): the client's mistake, never a 500.
     */
    private static @Nullable String parameter(HttpServletRequest request, String name) {
        try {
            return request.getParameter(name);
        }
        catch (IllegalStateException ex) {
            return null;
        }
    }

    private static Map<String, String> params(HttpServletRequest request) {
        Map<String, String> all = new LinkedHashMap<>();
        try {
            request.getParameterMap().forEach((name, values) -> all.put(name, (values.length > 0) ? values[0] : null));
        }
        catch (IllegalStateException ex) {
            // parameters that cannot be decoded: none, as parameter() reads them
        }
        return all;
    }

    /** The rate-limit header fields of the rules' decision, set on the request's thread once it is made. */
    private static final class HeaderFields implements RateLimitListener {

        private final Headers headers;

        private volatile @Nullable Map<String, String> fields;

        HeaderFields(Headers headers) {
            this.headers = headers;
        }

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            if (this.headers != Headers.NONE) {
                this.fields = RateLimitHeaders.of(this.headers, requests, decisions, binding);
            }
        }

        void setOn(HttpServletResponse response) {
            Map<String, String> fields = this.fields;
            if (fields != null) {
                fields.forEach(response::setHeader);
            }
        }

        boolean written() {
            return this.fields != null;
        }

    }

}
