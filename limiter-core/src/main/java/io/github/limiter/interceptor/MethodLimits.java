package io.github.limiter.interceptor;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.RateLimitExceededException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.CoroutinesUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Everything about one limited method, resolved once: its limits in declaration order and its
 * fallback, if any.
 *
 * @param specs the limits
 * @param fallback the method to call instead of throwing, or {@code null}
 * @param fallbackTakesException whether the fallback's last parameter is the exception
 * @param returns how the method hands back its result, which says when a call is decided
 * @param readsClientIp whether a key, a zone or a condition of the method reads {@code #clientIp}: a reactive method's
 * keys are then resolved when it is subscribed to, where a reactive web request's address is known
 * @param actualCosts the actual costs of the limits that settle calls after they ran, by limit id
 * (of each policy a call may choose); empty if none does
 */
record MethodLimits(List<LimitSpec> specs, @Nullable Method fallback, boolean fallbackTakesException,
        ReturnType returns, boolean readsClientIp, Map<String, ActualCost> actualCosts) {

    MethodLimits(List<LimitSpec> specs, @Nullable Method fallback, boolean fallbackTakesException, ReturnType returns) {
        this(specs, fallback, fallbackTakesException, returns,
                specs.stream().flatMap((spec) -> spec.variants().stream()).anyMatch(MethodLimits::readsClientIp),
                actualCosts(specs));
    }

    private static boolean readsClientIp(LimitSpec spec) {
        return spec.key().readsClientIp() || (spec.zone() != null && spec.zone().readsClientIp())
                || (spec.condition() != null && spec.condition().readsClientIp());
    }

    private static Map<String, ActualCost> actualCosts(List<LimitSpec> specs) {
        Map<String, ActualCost> actualCosts = new HashMap<>();
        for (LimitSpec declared : specs) {
            for (LimitSpec variant : declared.variants()) {
                if (variant.actualCost() != null) {
                    actualCosts.put(variant.limitId(), variant.actualCost());
                }
            }
        }
        return Map.copyOf(actualCosts);
    }

    /** Whether a limit of the method settles its calls once they ran. */
    boolean settles() {
        return !this.actualCosts.isEmpty();
    }

    /**
     * Calls the fallback on the target with the call's arguments, or throws {@code rejection}. A
     * suspend function's fallback, a suspend function too, is called as Spring's proxies call one:
     * as a {@code Mono}, which the interceptor hands back for the proxy to await.
     */
    @Nullable Object fallBack(@Nullable Object target, @Nullable Object[] args, RateLimitExceededException rejection)
            throws Throwable {
        if (this.fallback == null || target == null) {
            throw rejection;
        }
        // the caller's arguments: a suspend function's continuation is left out, as the fallback gets its own
        Object[] fallbackArgs = this.returns.suspending() ? Arrays.copyOf(args, args.length - 1) : args;
        if (this.fallbackTakesException) {
            fallbackArgs = Arrays.copyOf(fallbackArgs, fallbackArgs.length + 1);
            fallbackArgs[fallbackArgs.length - 1] = rejection;
        }
        if (this.returns.suspending()) {
            return CoroutinesUtils.invokeSuspendingFunction(this.fallback, target, fallbackArgs);
        }
        try {
            ReflectionUtils.makeAccessible(this.fallback);
            return this.fallback.invoke(target, fallbackArgs);
        }
        catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
    }

}
