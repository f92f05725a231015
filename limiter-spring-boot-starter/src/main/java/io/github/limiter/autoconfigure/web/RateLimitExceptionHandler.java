package io.github.limiter.autoconfigure.web;

import java.time.Duration;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.autoconfigure.LimiterProperties.Web.Headers;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a call over its limit with 429, or a banned key's call with the configured ban status.
 * Ordered last, so any handler of the application's own (in the controller or in an advice) wins.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class RateLimitExceptionHandler {

    private final HttpStatusCode banStatus;

    private final Headers headers;

    RateLimitExceptionHandler(HttpStatusCode banStatus, Headers headers) {
        this.banStatus = banStatus;
        this.headers = headers;
    }

    @ExceptionHandler(RateLimitExceededException.class)
    ResponseEntity<ProblemDetail> handle(RateLimitExceededException ex) {
        long retryAfterSeconds = retryAfterSeconds(ex.getRetryAfter());
        HttpStatusCode status = ex.isFailure() ? HttpStatus.SERVICE_UNAVAILABLE
                : ex.isBanned() ? this.banStatus : HttpStatus.TOO_MANY_REQUESTS;
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail(ex, retryAfterSeconds));
        problem.setTitle(ex.isFailure() ? "Service Unavailable" : ex.isBanned() ? "Banned" : "Too Many Requests");
        problem.setProperty("limit", ex.getLimit());
        problem.setProperty("retryAfter", retryAfterSeconds);
        problem.setProperty("banned", ex.isBanned());
        HttpHeaders responseHeaders = new HttpHeaders();
        Decision decision = ex.getDecision();
        RateLimitHeaders.of(this.headers, List.of(), List.of(), decision).forEach(responseHeaders::set);
        responseHeaders.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        return ResponseEntity.status(status).headers(responseHeaders).body(problem);
    }

    private static String detail(RateLimitExceededException ex, long retryAfterSeconds) {
        if (ex.isFailure()) {
            return "The rate limiter cannot decide right now. Retry after " + retryAfterSeconds + " seconds.";
        }
        return ex.isBanned()
                ? "Banned for going past " + ex.getLimit() + " calls per window. Retry after " + retryAfterSeconds
                        + " seconds."
                : "Rate limit exceeded: at most " + ex.getLimit() + " calls per window. Retry after "
                        + retryAfterSeconds + " seconds.";
    }

    /** Whole seconds, rounded up so a client that waits that long is allowed, and at least 1. */
    static long retryAfterSeconds(Duration retryAfter) {
        long millis = retryAfter.toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }

}
