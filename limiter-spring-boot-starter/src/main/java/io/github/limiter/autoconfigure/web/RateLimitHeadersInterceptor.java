package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import io.github.limiter.interceptor.RateLimitAdvisor;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Puts the rate-limit headers of a Spring MVC request's limited calls on its response, whatever
 * the handler returns. Before the handler runs, it gives the request a listener of its decisions
 * ({@link RateLimitAdvisor#CALL_LISTENER_ATTRIBUTE}), which the limiter tells each decision of a
 * call made for the request, on whatever thread it completes. A decision made on the request's
 * thread, as a handler returning a plain value's is, sets the headers at once, before the handler
 * writes its body; one that completes elsewhere, for a handler returning a
 * {@code CompletableFuture} or a reactive type, is kept, and set when Spring MVC dispatches the
 * request again to write the result. The response is touched only on the container's threads, and
 * each header is set, never added: every answer carries one of each.
 */
final class RateLimitHeadersInterceptor implements HandlerInterceptor {

    private final Headers headers;

    RateLimitHeadersInterceptor(Headers headers) {
        this.headers = headers;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (this.headers == Headers.NONE) {
            return true;
        }
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            if (request.getAttribute(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE) instanceof ResponseHeaders decided) {
                decided.setOn(response);
            }
            return true;
        }
        request.setAttribute(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE, new ResponseHeaders(this.headers, response));
        return true;
    }

    /** The header fields of one request's latest decision, set at once on the request's own thread. */
    private static final class ResponseHeaders implements RateLimitListener {

        private final Headers headers;

        private final HttpServletResponse response;

        private final Thread requestThread = Thread.currentThread();

        private volatile @Nullable Map<String, String> fields;

        ResponseHeaders(Headers headers, HttpServletResponse response) {
            this.headers = headers;
            this.response = response;
        }

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            Map<String, String> fields = RateLimitHeaders.of(this.headers, requests, decisions, binding);
            this.fields = fields;
            if (Thread.currentThread() == this.requestThread && !this.response.isCommitted()) {
                fields.forEach(this.response::setHeader);
            }
        }

        void setOn(HttpServletResponse response) {
            Map<String, String> fields = this.fields;
            if (fields != null && !response.isCommitted()) {
                fields.forEach(response::setHeader);
            }
        }

    }

}
