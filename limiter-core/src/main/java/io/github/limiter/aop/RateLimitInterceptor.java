package io.github.limiter.aop;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimiter;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Composes one call's decision: find the method's cached limit, resolve the key, ask the
 * {@link RateLimiter}, and proceed or throw.
 */
final class RateLimitInterceptor implements MethodInterceptor {

    private final LimitSpecs specs;

    private final Supplier<RateLimiter> rateLimiter;

    RateLimitInterceptor(LimitSpecs specs, Supplier<RateLimiter> rateLimiter) {
        this.specs = specs;
        this.rateLimiter = rateLimiter;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        LimitSpec spec = this.specs.find(method, (target != null) ? AopUtils.getTargetClass(target) : null);
        if (spec == null) {
            return invocation.proceed();
        }
        String key = spec.key().resolve(method, invocation.getArguments());
        Decision decision = this.rateLimiter.get().tryAcquire(spec.limitId(), key, spec.limit());
        if (!decision.allowed()) {
            throw new RateLimitExceededException(spec.limitId(), key, decision);
        }
        return invocation.proceed();
    }

}
