package io.github.limiter.autoconfigure.web;

import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.autoconfigure.LimiterWebProperties;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Answers a call over its limit with 429, or a banned key's call with the configured ban status,
 * and a problem detail whose {@code type} names the kind of refusal (see
 * {@link RateLimitProblemTypes}) and whose {@code limitId} names the limit that refused it; and a
 * call whose key is blank with 400, the client's mistake rather than the server's, and one whose
 * limit's expression failed with 500, the application's. Ordered last, so any handler of the
 * application's own (in the controller or in an advice) wins.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class RateLimitExceptionHandler {

    private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletResponse",
            RateLimitExceptionHandler.class.getClassLoader());

    private final HttpStatusCode banStatus;

    private final Headers headers;

    private final Map<Refusal, URI> types = new EnumMap<>(Refusal.class);

    private final URI blankKeyType;

    private final URI expressionFailedType;

    /** The handler as {@code limiter.web.*} configures it, for Spring MVC and WebFlux alike. */
    static RateLimitExceptionHandler of(LimiterWebProperties web) {
        return new RateLimitExceptionHandler(HttpStatusCode.valueOf(web.getBanStatus()), web.getHeaders(),
                web.getProblemTypeBase());
    }

    RateLimitExceptionHandler(HttpStatusCode banStatus, Headers headers, URI problemTypeBase) {
        this.banStatus = banStatus;
        this.headers = headers;
        for (Refusal refusal : Refusal.values()) {
            this.types.put(refusal, RateLimitProblemTypes.under(problemTypeBase, refusal.slug));
        }
        this.blankKeyType = RateLimitProblemTypes.under(problemTypeBase, RateLimitProblemTypes.BLANK_KEY_SLUG);
        this.expressionFailedType = RateLimitProblemTypes.under(problemTypeBase,
                RateLimitProblemTypes.EXPRESSION_FAILED_SLUG);
    }

    /**
     * A blank key comes from the request (an empty or missing parameter), so the answer is 400. It
     * names the limit, as a refusal does, but not the key expression: that is the application's
     * code, not the client's business.
     */
    @ExceptionHandler(BlankRateLimitKeyException.class)
    ResponseEntity<ProblemDetail> handle(BlankRateLimitKeyException ex) {
        return blankKey(ex).entity();
    }

    Answer blankKey(BlankRateLimitKeyException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "The request lacks the value rate limit '" + ex.getLimitId() + "' counts calls by.");
        problem.setType(this.blankKeyType);
        problem.setTitle("Rate limit key missing");
        problem.setProperty("limitId", ex.getLimitId());
        return new Answer(HttpStatus.BAD_REQUEST, new HttpHeaders(), problem);
    }

    /**
     * An expression of the limit failed: the application's mistake, so the answer is 500. It names
     * the limit but neither the expression nor the cause, which the log has (once per limit and
     * kind of failure).
     */
    @ExceptionHandler(RateLimitExpressionException.class)
    ResponseEntity<ProblemDetail> handle(RateLimitExpressionException ex) {
        return expressionFailed(ex).entity();
    }

    Answer expressionFailed(RateLimitExpressionException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "Rate limit '" + ex.getLimitId() + "' could not evaluate its " + ex.getAttribute() + " for this request.");
        problem.setType(this.expressionFailedType);
        problem.setTitle("Rate limit expression failed");
        problem.setProperty("limitId", ex.getLimitId());
        return new Answer(HttpStatus.INTERNAL_SERVER_ERROR, new HttpHeaders(), problem);
    }

    @ExceptionHandler(RateLimitExceededException.class)
    ResponseEntity<ProblemDetail> handle(RateLimitExceededException ex) {
        return refused(ex, headersWritten()).entity();
    }

    /**
     * The answer to a refused call.
     * @param headersWritten whether the response has the rate-limit headers of the refusal already
     */
    Answer refused(RateLimitExceededException ex, boolean headersWritten) {
        Refusal refusal = Refusal.of(ex);
        long retryAfterSeconds = retryAfterSeconds(ex.getRetryAfter());
        HttpStatusCode status = switch (refusal) {
            case RATE_LIMIT_EXCEEDED -> HttpStatus.TOO_MANY_REQUESTS;
            case BANNED -> this.banStatus;
            case LIMITER_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail(refusal, ex, retryAfterSeconds));
        problem.setType(this.types.get(refusal));
        // With a type set, RFC 9457 lets the title describe the type rather than repeat the status phrase.
        problem.setTitle(refusal.title);
        problem.setProperty("limitId", ex.getLimitId());
        problem.setProperty("limit", ex.getLimit());
        problem.setProperty("retryAfter", retryAfterSeconds);
        problem.setProperty("banned", ex.isBanned());
        HttpHeaders responseHeaders = new HttpHeaders();
        if (!headersWritten) {
            // a refusal no limited call of this request reported: RateLimitExceededException thrown by code
            RateLimitHeaders.of(this.headers, List.of(), List.of(), ex.getDecision()).forEach(responseHeaders::set);
        }
        responseHeaders.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        return new Answer(status, responseHeaders, problem);
    }

    private static String detail(Refusal refusal, RateLimitExceededException ex, long retryAfterSeconds) {
        String retry = " Retry after " + retryAfterSeconds + " seconds.";
        return switch (refusal) {
            case RATE_LIMIT_EXCEEDED -> "Rate limit exceeded: at most " + ex.getLimit() + " calls per window." + retry;
            case BANNED -> "Banned for going past " + ex.getLimit() + " calls per window." + retry;
            case LIMITER_UNAVAILABLE -> "The rate limiter cannot decide right now." + retry;
        };
    }

    /**
     * Whether the rate-limit headers are on the response already: in Spring MVC, the refused call's
     * decision set them (see {@code RateLimitHeadersInterceptor}); the answer must not carry them
     * twice, as Spring Framework 6 would write the entity's headers beside the response's. In
     * Spring WebFlux the request's filter sets them as the response is committed, over any of
     * these.
     */
    private static boolean headersWritten() {
        return SERVLET && ServletResponse.hasRateLimitHeaders();
    }

    /** Only loaded where the Servlet API is: a WebFlux application may have none. */
    private static final class ServletResponse {

        static boolean hasRateLimitHeaders() {
            return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes servlet
                    && servlet.getResponse() != null && (servlet.getResponse().containsHeader("X-RateLimit-Limit")
                            || servlet.getResponse().containsHeader("RateLimit"));
        }

    }

    /** Whole seconds, rounded up so a client that waits that long is allowed, and at least 1. */
    static long retryAfterSeconds(Duration retryAfter) {
        long millis = retryAfter.toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }

    /**
     * An answer: its status, headers and problem detail.
     *
     * @param status the status
     * @param headers the headers beside the problem's content type
     * @param problem the problem detail
     */
    record Answer(HttpStatusCode status, HttpHeaders headers, ProblemDetail problem) {

        ResponseEntity<ProblemDetail> entity() {
            return ResponseEntity.status(this.status).headers(this.headers).body(this.problem);
        }

    }

    /** The kinds of refusal, each with its own problem type. */
    private enum Refusal {

        RATE_LIMIT_EXCEEDED(RateLimitProblemTypes.RATE_LIMIT_EXCEEDED_SLUG, "Rate limit exceeded"),

        BANNED(RateLimitProblemTypes.BANNED_SLUG, "Banned for exceeding a rate limit"),

        LIMITER_UNAVAILABLE(RateLimitProblemTypes.LIMITER_UNAVAILABLE_SLUG, "Rate limiter unavailable");

        private final String slug;

        private final String title;

        Refusal(String slug, String title) {
            this.slug = slug;
            this.title = title;
        }

        static Refusal of(RateLimitExceededException ex) {
            if (ex.isFailure()) {
                return LIMITER_UNAVAILABLE;
            }
            return ex.isBanned() ? BANNED : RATE_LIMIT_EXCEEDED;
        }

    }

}
