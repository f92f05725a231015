package io.github.limiter.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
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

    private final BlankKey blankKey;

    RateLimitInterceptor(LimitSpecs specs, Supplier<RateLimiter> rateLimiter, BlankKey blankKey) {
        this.specs = specs;
        this.rateLimiter = rateLimiter;
        this.blankKey = blankKey;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        MethodLimits limits = this.specs.find(method, (target != null) ? AopUtils.getTargetClass(target) : null);
        if (limits == null) {
            return invocation.proceed();
        }
        Object[] args = invocation.getArguments();
        List<LimitRequest> requests = new ArrayList<>(limits.specs().size());
        for (LimitSpec spec : limits.specs()) {
            String key = spec.key().resolve(method, args);
            if (key == null) {
                if (this.blankKey == BlankKey.SKIP) {
                    continue;
                }
                throw new IllegalStateException("Rate limit key '" + spec.key().text() + "' of " + spec.method()
                        + " evaluated to null or a blank string; the call is rejected because it cannot be counted"
                        + " (limiter.blank-key=skip skips the limit instead)");
            }
            requests.add(new LimitRequest(spec.limitId(), key, spec.limit(), spec.cost().resolve(method, args)));
        }
        if (requests.isEmpty()) {
            return invocation.proceed();
        }
        Decision decision = this.rateLimiter.get().tryAcquire(requests);
        if (!decision.allowed()) {
            return limits.fallBack(target, args, new RateLimitExceededException(decision));
        }
        return invocation.proceed();
    }

}
