package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Adds the rate-limit headers to the response of the HTTP request a decision was made in, while
 * the handler still runs and the response is not yet committed. Decisions made outside a request
 * are left alone.
 */
class RateLimitHeadersListener implements RateLimitListener {

    private final Headers headers;

    RateLimitHeadersListener(Headers headers) {
        this.headers = headers;
    }

    @Override
    public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
            Duration latency) {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (!(attributes instanceof ServletRequestAttributes servlet)) {
            return;
        }
        HttpServletResponse response = servlet.getResponse();
        if (response == null || response.isCommitted()) {
            return;
        }
        RateLimitHeaders.of(this.headers, requests, decisions, binding).forEach(response::setHeader);
    }

}
