package io.github.limiter.autoconfigure.web;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitExpressionException;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Answers the limiter's exceptions that no controller advice handled in a Spring WebFlux
 * application, as {@link RateLimitExceptionHandler} answers an annotated controller's: those of a
 * limited bean called from a functional endpoint ({@code RouterFunction}), which controller advice
 * does not cover. Ordered before Spring Boot's error handler; an application's own
 * {@code WebExceptionHandler} of higher precedence, or its {@code onErrorResume}, wins.
 */
final class RateLimitWebExceptionHandler implements WebExceptionHandler, Ordered {

    private final RateLimitExceptionHandler answers;

    RateLimitWebExceptionHandler(RateLimitExceptionHandler answers) {
        this.answers = answers;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        if (exchange.getResponse().isCommitted()) {
            return Mono.error(ex);
        }
        if (ex instanceof RateLimitExceededException refused) {
            return RequestRuleWebFilter.answer(exchange, this.answers.refused(refused, false));
        }
        if (ex instanceof BlankRateLimitKeyException blank) {
            return RequestRuleWebFilter.answer(exchange, this.answers.blankKey(blank));
        }
        if (ex instanceof RateLimitExpressionException failed) {
            return RequestRuleWebFilter.answer(exchange, this.answers.expressionFailed(failed));
        }
        return Mono.error(ex);
    }

    @Override
    public int getOrder() {
        // before Spring Boot's ErrorWebExceptionHandler, at -1
        return -2;
    }

}
