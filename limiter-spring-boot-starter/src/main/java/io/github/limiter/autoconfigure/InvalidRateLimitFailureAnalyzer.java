package io.github.limiter.autoconfigure;

import io.github.limiter.aop.InvalidRateLimitException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an invalid {@code @RateLimit} into a start-up report that says what to change.
 */
class InvalidRateLimitFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRateLimitException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidRateLimitException cause) {
        String action = cause.getAttribute().equals("method")
                ? "Make the method named above public, or put its @RateLimit on a public method of the bean."
                : "Correct the '" + cause.getAttribute() + "' attribute of the @RateLimit annotation named above.";
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }

}
