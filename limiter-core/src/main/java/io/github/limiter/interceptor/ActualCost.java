package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.LimitChecks.Field;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;

/**
 * What a call really cost, known once it ran: {@link RateLimit#actualCost()}, a SpEL expression
 * evaluated after the method returned or threw, with the key's variables and {@code #result} and
 * {@code #exception}, which win over parameters of those names.
 *
 * @param text the expression as written
 * @param expression the parsed expression
 * @param calls the method's arguments, as SpEL sees them
 */
record ActualCost(String text, Expression expression, CallVariables calls) {

    /** The call's result: the method's return value, or what its future or {@code Mono} completed with. */
    static final String RESULT = "result";

    /** What the call threw or failed with, or {@code null}. */
    static final String EXCEPTION = "exception";

    /** The variables an actual cost reads besides a key's. */
    static final Set<String> VARIABLES = Set.of(RESULT, EXCEPTION);

    /** What messages add to the variables a key may read. */
    static final String ALSO = "; in actualCost also #" + RESULT + " and #" + EXCEPTION;

    /** The shortest window a limit with an actual cost may have (see {@link #problem}). */
    private static final Duration MIN_WINDOW = Duration.ofSeconds(1);

    /**
     * What keeps a limit from settling its calls exactly, if anything. Only a limit whose counts are
     * kept per window of Redis's clock can, in the window the call was decided in, which is found
     * from the time since the decision: a window shorter than a second could be taken for the next.
     * @param limit the limit, as configured
     * @return the problem, or {@code null}
     */
    static @Nullable Problem problem(Limit limit) {
        Algorithm algorithm = limit.algorithm();
        if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.SLIDING_LOG) {
            return new Problem(Field.ALGORITHM, "cannot be settled exactly under " + algorithm + ": "
                    + ((algorithm == Algorithm.TOKEN_BUCKET)
                            ? "a bucket's tokens refill from the moment they are taken, so by the time a call ends "
                                    + "nothing tells how many of its tokens are still out"
                            : "a sliding log holds one entry per permit at its call's time, which a later "
                                    + "settlement cannot tell from other calls'")
                    + "; use FIXED_WINDOW or SLIDING_WINDOW, whose counts are kept per window");
        }
        if (limit.window().compareTo(MIN_WINDOW) < 0) {
            return new Problem(Field.WINDOW, "needs a window of at least 1s, not " + limit.window().toMillis()
                    + "ms: a settlement finds the window its call was decided in from the time since the "
                    + "decision, which a shorter window could end within");
        }
        return null;
    }

    /**
     * Why a limit cannot settle.
     *
     * @param field the setting that keeps it from it
     * @param message what is wrong, for the start's failure
     */
    record Problem(Field field, String message) {
    }

    /**
     * Evaluates the call's actual cost.
     * @param method the method called, as declared by the target class
     * @param args the call's arguments
     * @param result the call's result, or {@code null}
     * @param exception what the call threw, or {@code null}
     * @return the cost, 0 or more
     * @throws IllegalArgumentException if the expression does not give a whole number of 0 or more
     */
    long resolve(Method method, @Nullable Object[] args, @Nullable Object result, @Nullable Throwable exception) {
        EvaluationContext context = this.calls.context(method, args);
        context.setVariable(RESULT, result);
        context.setVariable(EXCEPTION, exception);
        Object value = this.expression.getValue(context);
        if (value instanceof Number number && number.doubleValue() == number.longValue() && number.longValue() >= 0) {
            return number.longValue();
        }
        throw new IllegalArgumentException("Rate limit actualCost '" + this.text + "' of "
                + method.getDeclaringClass().getSimpleName() + "." + method.getName() + " gave " + value
                + ", not a whole number of 0 or more");
    }

}
