package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import io.github.limiter.interceptor.RateLimitAdvisor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Adds the rate-limit headers to the responses of reactive web applications. A reactive request
 * has no thread of its own to find it by, so each request's subscription carries a listener in its
 * Reactor context (under {@link RateLimitAdvisor#CALL_LISTENER_ATTRIBUTE}), which the limited methods subscribed
 * within tell about their decisions; the latest is written into the response just before it is
 * committed, allowed or refused alike.
 */
class RateLimitHeadersWebFilter implements WebFilter, Ordered {

    private final Headers headers;

    RateLimitHeadersWebFilter(Headers headers) {
        this.headers = headers;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (this.headers == Headers.NONE) {
            return chain.filter(exchange);
        }
        LatestDecision latest = new LatestDecision();
        exchange.getResponse().beforeCommit(() -> {
            latest.writeTo(this.headers, exchange.getResponse().getHeaders());
            return Mono.empty();
        });
        return chain.filter(exchange)
            .contextWrite(context -> context.put(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, latest));
    }

    @Override
    public int getOrder() {
        // early, so that every filter and handler after it runs within the context it writes
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    /** The latest decision of one request: several limited calls in one request write in turn. */
    private static final class LatestDecision implements RateLimitListener {

        private volatile @Nullable Decided decided;

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            this.decided = new Decided(requests, decisions, binding);
        }

        void writeTo(Headers which, HttpHeaders response) {
            Decided decided = this.decided;
            if (decided != null) {
                RateLimitHeaders.of(which, decided.requests(), decided.decisions(), decided.binding())
                    .forEach(response::set);
            }
        }

        private record Decided(List<LimitRequest> requests, List<Decision> decisions, Decision binding) {
        }

    }

}
