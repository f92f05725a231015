package io.github.limiter.autoconfigure;

import io.github.limiter.InvalidRateLimitException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an invalid {@code @RateLimit}, or URL rule, into a start-up report that says what to change.
 */
class InvalidRateLimitFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRateLimitException> {

    // how the message of an invalid URL rule (limiter.web.rules) begins
    private static final String RULE = "Invalid rate-limit rule: ";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidRateLimitException cause) {
        String action;
        String message = String.valueOf(cause.getMessage());
        if (message.startsWith(RULE)) {
            // "Invalid rate-limit rule: limiter.web.rules.<name>.<property> = '<value>' ..."
            int end = message.indexOf(" = '");
            String property = message.substring(RULE.length(), (end > 0) ? end : message.length());
            action = "Correct " + property + ", named above, in the application's configuration.";
        }
        else if (!cause.getAttribute().equals("method")) {
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
