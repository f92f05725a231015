package io.github.limiter.autoconfigure;

import io.github.limiter.InvalidRateLimitException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an invalid {@code @RateLimit} into a start-up report that says what to change.
 */
class InvalidRateLimitFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRateLimitException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidRateLimitException cause) {
        String action;
        if (!cause.getAttribute().equals("method")) {
            action = "Correct the '" + cause.getAttribute() + "' attribute of the @RateLimit annotation named above.";
        }
        else if (cause.getValue().equals("final")) {
            action = "Make the method named above overridable: neither it nor its class final (in Kotlin, open, "
                    + "or opened by the kotlin-spring compiler plugin).";
        }
        else {
            action = "Make the method named above public, or put its @RateLimit on a public method of the bean.";
        }
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }

}
