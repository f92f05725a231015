package io.github.limiter.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import io.github.limiter.RateLimitExceededException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * Everything about one limited method, resolved once: its limits in declaration order and its
 * fallback, if any.
 *
 * @param specs the limits
 * @param fallback the method to call instead of throwing, or {@code null}
 * @param fallbackTakesException whether the fallback's last parameter is the exception
 * @param returns how the method hands back its result, which says when a call is decided
 */
record MethodLimits(List<LimitSpec> specs, @Nullable Method fallback, boolean fallbackTakesException,
        Returns returns) {

    /** Calls the fallback on the target with the call's arguments, or throws {@code rejection}. */
    @Nullable Object fallBack(@Nullable Object target, @Nullable Object[] args, RateLimitExceededException rejection)
            throws Throwable {
        if (this.fallback == null || target == null) {
            throw rejection;
        }
        Object[] fallbackArgs = args;
        if (this.fallbackTakesException) {
            fallbackArgs = Arrays.copyOf(args, args.length + 1);
            fallbackArgs[args.length] = rejection;
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
