package io.github.limiter.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;

/**
 * Limits how often a method may be called per key, across every application instance that shares
 * the Redis.
 *
 * <pre class="code">
 * &#64;RateLimit(key = "#userId", window = "60s", max = 20)
 * public Answer answer(long questionId, String userId) { ... }
 * </pre>
 *
 * <p>Settings can come from a named policy in configuration ({@code limiter.policies.<name>});
 * an attribute set on the annotation overrides the policy's value:
 *
 * <pre class="code">
 * &#64;RateLimit(policy = "answers", key = "#user.name()")
 * </pre>
 *
 * <p>Repeatable: a method with several limits, such as 5 a second and 1000 an hour, passes only if
 * every one allows the call, decided in one round trip; a rejected call is counted by none of them.
 *
 * <p>Applies to public methods of Spring beans, whether proxied through an interface or through
 * their class. On a class, it applies to every public method, each with its own counter. A method's
 * own annotation wins over its class's.
 *
 * <p>A call over the limit throws {@link io.github.limiter.RateLimitExceededException}. Invalid
 * attributes fail the application start with a message naming the class, method, attribute and
 * value.
 *
 * <p>A method returning {@code Mono}, {@code Flux} or another reactive type Spring's
 * {@code ReactiveAdapterRegistry} knows (with Reactor on the classpath) is decided once per
 * subscription, without blocking; only an allowed subscription runs the method's body, and a
 * refusal is an error signal carrying the exception. A method returning {@code CompletableFuture}
 * or {@code CompletionStage} is decided once per call, without blocking; a refusal completes the
 * future exceptionally.
 *
 * @since 0.1.0
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@Repeatable(RateLimits.class)
public @interface RateLimit {

    /**
     * A SpEL expression for the key counted, evaluated on each call. Method arguments are available
     * by name ({@code #userId}, {@code #form.user.id}) and by position ({@code #p0}, {@code #a0}),
     * all arguments as {@code #args}, the method as {@code #method}, and beans as
     * {@code @beanName}. The empty string (the default) means one counter shared by every caller.
     * An expression that evaluates to {@code null} or a blank string rejects the call with a
     * {@link io.github.limiter.BlankRateLimitKeyException} (HTTP 400 in web applications), or
     * skips the limit with {@code limiter.blank-key=skip}.
     * @return the key expression
     */
    String key() default "";

    /**
     * Whether the limit applies to a call: a SpEL expression with the same variables as
     * {@link #key()}, evaluated on each call before the limit's other expressions, as
     * {@code @Cacheable(condition = ...)} is. Only {@code true} applies the limit; when it gives
     * {@code false} (or {@code null}), the call is not counted under this limit, no script runs for
     * it, and its rate-limit headers leave it out; the method's other limits still apply. Checked at
     * start as keys are.
     * @return the condition, or the empty string to apply the limit to every call
     */
    String condition() default "";

    /**
     * The window's length: a number with a unit ({@code "500ms"}, {@code "60s"}, {@code "1m"},
     * {@code "2h"}, {@code "1d"}) or an ISO-8601 duration ({@code "PT1M"}). At least one
     * millisecond. Required, here or in the policy.
     * @return the window, or the empty string for the policy's
     */
    String window() default "";

    /**
     * The calls allowed per key and window, at least 1. The call after the {@code max}-th in a
     * window is rejected. Required, here or in the policy.
     * @return the limit, or -1 for the policy's
     */
    long max() default -1;

    /**
     * The name of a policy in {@code limiter.policies} to take settings from. Attributes set here
     * override the policy's.
     * @return the policy name, or the empty string for none
     */
    String policy() default "";

    /**
     * The count after which the next call in a window publishes one
     * {@link io.github.limiter.RateLimitAlertEvent}: once per key and window, across all
     * application instances. Between 1 and {@code max - 1}.
     * @return the alert threshold, or -1 for the policy's (none without a policy)
     */
    long alertAt() default -1;

    /**
     * How long a key that goes past {@code max} is banned, in the same forms as {@link #window()}.
     * While banned, every call for the key is rejected without being counted; the call that starts
     * the ban publishes one {@link io.github.limiter.RateLimitBanEvent}.
     * @return the ban's length, or the empty string for the policy's (none without a policy)
     */
    String banFor() default "";

    /**
     * How calls are counted; written {@code algorithm = Algorithm.SLIDING_LOG}. At most one.
     * @return the algorithm, or none for the policy's ({@link Algorithm#FIXED_WINDOW} without a
     * policy)
     */
    Algorithm[] algorithm() default {};

    /**
     * For a {@link Algorithm#TOKEN_BUCKET}, the tokens its bucket holds: it refills {@code max}
     * per {@code window}, and a key that saved up may take up to {@code burst} at once ("10 a
     * second, bursts of 100": {@code max = 10, window = "1s", burst = 100}). At least {@code max};
     * {@code Retry-After} follows the refill rate. Another algorithm refuses it at start.
     * @return the burst, or -1 for the policy's ({@code max} without one)
     */
    long burst() default -1;

    /**
     * How long a call over the limit may wait for room instead of being refused, such as
     * {@code "2s"}: the call waits as long as Redis says the limit needs (its retry-after), then is
     * decided again, and is refused only when the next wait would end more than {@code maxWait}
     * after its first refusal. A method returning a plain value waits on its own thread (a
     * servlet thread waits with it; on an event loop it is refused at once); one returning a {@code CompletionStage}, a {@code Mono}, a
     * {@code Flux} or a Kotlin {@code suspend} function waits without blocking any thread. Calls
     * that wait on several instances take the room in turn, never more than {@code max} a window.
     * The usual case is outbound: calls to a partner's API that allows so many a second. A
     * duration as {@link #window()} takes it, with {@code ${...}} placeholders; {@code 0} for none.
     * @return the longest wait, or the empty string for the policy's (none without one)
     */
    String maxWait() default "";

    /**
     * The permits one call takes: a whole number ({@code "5"}) or a SpEL expression evaluated on
     * each call, with the same variables as {@link #key()} ({@code "#files.size()"}). From 0 to
     * {@code max}; a call that would take more than {@code max} can never pass and is refused with
     * an {@link IllegalArgumentException}, not made to wait.
     * @return the cost, or the empty string for 1
     */
    String cost() default "";

    /**
     * What a call really cost, known only once it ran: a SpEL expression evaluated after the method
     * returns or throws, with the same variables as {@link #key()} and {@code #result} (the return
     * value; for a {@code CompletionStage} or a {@code Mono}, what it completed with; {@code null}
     * for a {@code Flux}) and {@code #exception} (what it threw or failed with, else {@code null}).
     * The {@link #cost()} taken before the call holds while it runs, so concurrent calls cannot
     * overshoot; afterwards the difference is given back or charged, in the window the call was
     * decided in, while that window runs ({@code "#exception == null ? 0 : 1"} counts failed calls
     * only). Needs {@code FIXED_WINDOW} or {@code SLIDING_WINDOW} and a window of at least 1s,
     * checked at start. A call cancelled before it ended, or whose expression fails, keeps its cost.
     * @return the expression, or the empty string for calls that cost what they took
     */
    String actualCost() default "";

    /**
     * Whether the limit stops calls ({@code ENFORCE}) or only counts, alerts and reports what it
     * would have rejected or banned ({@code SHADOW}); written {@code mode = Limit.Mode.SHADOW}. At
     * most one.
     * @return the mode, or none for the policy's ({@code ENFORCE} without a policy)
     */
    Limit.Mode[] mode() default {};

    /**
     * The name of a method of the same bean to call instead of throwing
     * {@link io.github.limiter.RateLimitExceededException} when the call is rejected. It takes the
     * same parameters, optionally followed by a {@code RateLimitExceededException}, and returns a
     * type the limited method may return. Checked at start-up. On a method with several limits,
     * they must name the same fallback, or only one of them names one.
     * @return the fallback method's name, or the empty string to throw
     */
    String fallback() default "";

    /**
     * What a call does when Redis cannot decide it (unreachable, or slower than the limiter's
     * timeout): {@code OnFailure.ALLOW} lets it through uncounted, {@code OnFailure.DENY} refuses it,
     * {@code OnFailure.LOCAL} decides it in the instance's memory under the same limit. Written
     * {@code onFailure = OnFailure.DENY}. At most one.
     * @return the choice, or none for the policy's ({@code limiter.redis.on-failure} without one)
     */
    OnFailure[] onFailure() default {};

    /**
     * The limit's id, which names it in Redis keys, exceptions, events and logs. Defaults to
     * {@code SimpleClassName.methodName}, and for the second and later limits of a method without
     * a name to {@code SimpleClassName.methodName-2}, {@code -3}...; set it to share one counter between methods or to tell
     * apart classes with the same simple name. Not blank, and without {@code '{'}, {@code '}'},
     * {@code ':'} or whitespace.
     * @return the limit id, or the empty string for the default
     */
    String name() default "";

    /**
     * The calendar period counted in, instead of a {@link #window()}: written
     * {@code calendar = CalendarWindow.MONTH}; {@code max} calls are allowed per key and calendar
     * day, ISO week (from Monday), month or year of the {@link #zone()}, and a refused call is told
     * to retry when the next period starts. Excludes {@code window} and takes the fixed window's
     * algorithm only. At most one.
     * @return the calendar period, or none for the policy's (a window without a policy)
     */
    CalendarWindow[] calendar() default {};

    /**
     * The zone whose calendar counts, for a limit with a {@link #calendar()}: a zone id
     * ({@code "Europe/Berlin"}, {@code "UTC"}, {@code "+02:00"}), checked at start, or else a SpEL
     * expression evaluated on each call, with the same variables as {@link #key()}
     * ({@code "#customer.zone()"}), that gives a {@code ZoneId}, a {@code TimeZone} or a zone id;
     * a call whose expression gives none is refused with an {@link IllegalArgumentException}.
     * @return the zone, or the empty string for the policy's ({@code UTC} without one)
     */
    String zone() default "";

}
