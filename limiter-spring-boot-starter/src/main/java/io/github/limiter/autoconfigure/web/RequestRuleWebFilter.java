package io.github.limiter.autoconfigure.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.autoconfigure.internal.TrustedProxies;
import io.github.limiter.interceptor.RateLimitAdvisor;
import io.github.limiter.interceptor.RequestRules;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Applies the rules of {@code limiter.web.rules} to Spring WebFlux requests, as a web filter: ahead
 * of Spring Security's, or after it for the rules that read {@code #principal}. The same answers as
 * {@link RequestRuleFilter}, decided without blocking; the rate-limit headers are written by
 * {@link RateLimitHeadersWebFilter}, which the decision is told to. A form is read only for a rule
 * that reads {@code #params}, through the exchange, which keeps it for the handlers after.
 */
final class RequestRuleWebFilter implements WebFilter, Ordered {

    private static final MultiValueMap<String, String> NO_FORM = new LinkedMultiValueMap<>();

    private final UrlRules rules;

    private final RateLimitExceptionHandler answers;

    private final int ipv6Prefix;

    private final TrustedProxies trustedProxies;

    private final int order;

    RequestRuleWebFilter(UrlRules rules, RateLimitExceptionHandler answers, int ipv6Prefix,
            TrustedProxies trustedProxies, int order) {
        this.rules = rules;
        this.answers = answers;
        this.ipv6Prefix = ipv6Prefix;
        this.trustedProxies = trustedProxies;
        this.order = order;
    }

    @Override
    public int getOrder() {
        return this.order;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (this.rules.isEmpty()) {
            return chain.filter(exchange);
        }
        ServerHttpRequest request = exchange.getRequest();
        PathContainer path = request.getPath().pathWithinApplication();
        List<RequestRules.Rule> matching = this.rules.matching(path, request.getMethod());
        if (matching.isEmpty()) {
            return chain.filter(exchange);
        }
        boolean readsPrincipal = UrlRules.anyReads(matching, "principal");
        boolean readsForm = UrlRules.anyReads(matching, "params")
                && MediaType.APPLICATION_FORM_URLENCODED.isCompatibleWith(request.getHeaders().getContentType());
        if (!readsPrincipal && !readsForm) {
            return decide(exchange, chain, matching, path, NO_FORM, null);
        }
        Mono<Optional<String>> principal = readsPrincipal
                ? exchange.getPrincipal().map((found) -> Optional.of(found.getName())).defaultIfEmpty(Optional.empty())
                : Mono.just(Optional.empty());
        Mono<MultiValueMap<String, String>> form = readsForm ? exchange.getFormData() : Mono.just(NO_FORM);
        return Mono.zip(principal, form)
            .flatMap((read) -> decide(exchange, chain, matching, path, read.getT2(), read.getT1().orElse(null)));
    }

    private Mono<Void> decide(ServerWebExchange exchange, WebFilterChain chain, List<RequestRules.Rule> matching,
            PathContainer path, MultiValueMap<String, String> form, @Nullable String principal) {
        ServerHttpRequest request = exchange.getRequest();
        HttpHeaders headers = request.getHeaders();
        MultiValueMap<String, String> query = request.getQueryParams();
        RequestRules.Request variables = new RequestRules.Request(
                ClientAddressWebFilter.address(request, this.ipv6Prefix, this.trustedProxies), path.value(),
                request.getMethod().name(), new FirstValues(headers::getFirst, headers::toSingleValueMap),
                new FirstValues((name) -> firstParam(query, form, name), () -> params(query, form)),
                request, principal);
        List<LimitRequest> requests;
        try {
            requests = this.rules.requestRules().requests(matching, variables);
        }
        catch (BlankRateLimitKeyException ex) {
            return answer(exchange, this.answers.blankKey(ex));
        }
        catch (RateLimitExpressionException ex) {
            return answer(exchange, this.answers.expressionFailed(ex));
        }
        if (requests.isEmpty()) {
            return chain.filter(exchange);
        }
        return Mono.deferContextual((context) -> {
            RateLimitListener listener = context.getOrDefault(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, null);
            return Mono.fromCompletionStage(this.rules.requestRules().decideAsync(matching, requests, listener));
        }).flatMap((decision) -> decision.allowed() ? chain.filter(exchange)
                : answer(exchange, this.answers.refused(new RateLimitExceededException(decision), false)));
    }

    /** A query parameter's first value, else the form's. */
    private static @Nullable String firstParam(MultiValueMap<String, String> query,
            MultiValueMap<String, String> form, String name) {
        String fromQuery = query.getFirst(name);
        return (fromQuery != null) ? fromQuery : form.getFirst(name);
    }

    private static Map<String, String> params(MultiValueMap<String, String> query, MultiValueMap<String, String> form) {
        Map<String, String> all = new LinkedHashMap<>(form.toSingleValueMap());
        all.putAll(query.toSingleValueMap());
        return all;
    }

    /** Writes an answer as the problem detail's JSON: a rule's refusal, or a refusal no advice handled. */
    static Mono<Void> answer(ServerWebExchange exchange, RateLimitExceptionHandler.Answer answer) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(answer.status());
        answer.headers().forEach((name, values) -> response.getHeaders().put(name, values));
        try {
            // as Spring WebFlux's answer to an exception has it
            answer.problem().setInstance(URI.create(exchange.getRequest().getPath().value()));
        }
        catch (IllegalArgumentException ex) {
            // a path the server let through that is no URI: the problem has no instance
        }
        byte[] body = ProblemJson.of(answer.problem()).getBytes(StandardCharsets.UTF_8);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().setContentLength(body.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }

}
