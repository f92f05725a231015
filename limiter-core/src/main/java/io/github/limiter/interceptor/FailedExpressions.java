package io.github.limiter.interceptor;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.limiter.RateLimitExpressionException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.expression.spel.SpelEvaluationException;

/**
 * Turns an expression of a limit that failed for a call into a {@link RateLimitExpressionException}
 * naming the limit, the method, the attribute and the expression, and logs it once per limit,
 * attribute and kind of failure (SpEL's message code, or the class of what was thrown): a mistake
 * in the code fails every call alike, and one line with its stack trace says all there is.
 */
final class FailedExpressions {

    private static final Log logger = LogFactory.getLog(RateLimitInterceptor.class);

    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /**
     * Names the limit whose expression failed for a call, and logs it the first time.
     * @param spec the limit
     * @param attribute the attribute whose expression failed: {@code key}, {@code cost},
     * {@code zone} or {@code policy}
     * @param failure the failure
     * @return the exception to throw
     */
    RateLimitExpressionException failed(LimitSpec spec, String attribute, ExpressionFailure failure) {
        Throwable cause = failure.getCause();
        RateLimitExpressionException ex = new RateLimitExpressionException(spec.limitId(), attribute,
                text(spec, attribute), spec.method(), cause);
        String kind = (cause instanceof SpelEvaluationException spel) ? spel.getMessageCode().name()
                : cause.getClass().getName();
        if (this.logged.add(spec.limitId() + " " + attribute + " " + kind)) {
            logger.error(ex.getMessage() + ". The call is refused with this exception (HTTP 500 in web "
                    + "applications); logged once per limit and kind of failure", ex);
        }
        return ex;
    }

    private static String text(LimitSpec spec, String attribute) {
        return switch (attribute) {
            case "cost" -> (spec.cost() instanceof CostExpression.Spel spel) ? spel.text() : "";
            case "zone" -> (spec.zone() != null) ? spec.zone().text() : "";
            case "policy" -> (spec.choice() != null) ? spec.choice().text() : "";
            default -> spec.key().text();
        };
    }

}
