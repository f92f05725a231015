package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.interceptor.CallListenerSource;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * The rate-limit headers of a Spring MVC handler that returns a {@code CompletableFuture} or a
 * reactive type. Such a call is decided without blocking, and its decision completes on another
 * thread, where {@link RateLimitHeadersListener} finds no request. So, on the request's thread, the
 * call gets a listener that keeps the decision's headers with the request; when Spring MVC
 * dispatches the request again to write the handler's result, this interceptor sets them on the
 * response, before anything is written. The response is touched only on the container's threads.
 */
final class AsyncRateLimitHeaders implements CallListenerSource, HandlerInterceptor {

    private static final String ATTRIBUTE = AsyncRateLimitHeaders.class.getName() + ".decided";

    private final Headers headers;

    AsyncRateLimitHeaders(Headers headers) {
        this.headers = headers;
    }

    @Override
    public @Nullable RateLimitListener listenerForCurrentCall() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (this.headers == Headers.NONE || !(attributes instanceof ServletRequestAttributes servlet)) {
            return null;
        }
        // set here, on the request's thread; the decision's thread only writes the holder's field
        Decided decided = new Decided(this.headers);
        servlet.getRequest().setAttribute(ATTRIBUTE, decided);
        return decided;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getDispatcherType() == DispatcherType.ASYNC
                && request.getAttribute(ATTRIBUTE) instanceof Decided decided) {
            Map<String, String> fields = decided.fields;
            if (fields != null && !response.isCommitted()) {
                fields.forEach(response::setHeader);
            }
        }
        return true;
    }

    /** The header fields of one call's latest decision. */
    private static final class Decided implements RateLimitListener {

        private final Headers headers;

        private volatile @Nullable Map<String, String> fields;

        Decided(Headers headers) {
            this.headers = headers;
        }

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            this.fields = RateLimitHeaders.of(this.headers, requests, decisions, binding);
        }

    }

}
