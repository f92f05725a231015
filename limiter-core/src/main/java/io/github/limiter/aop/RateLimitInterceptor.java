package io.github.limiter.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimiter;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.dao.DataAccessException;

/**
 * Composes one call's decision: find the method's cached limit, resolve the key, ask the
 * {@link RateLimiter}, and proceed or throw.
 */
final class RateLimitInterceptor implements MethodInterceptor {

    /** What a refused caller is told while Redis cannot decide. */
    private static final Duration FAILURE_RETRY = Duration.ofSeconds(1);

    private final LimitSpecs specs;

    private final Supplier<RateLimiter> rateLimiter;

    private final BlankKey blankKey;

    private final OnFailure onFailure;

    RateLimitInterceptor(LimitSpecs specs, Supplier<RateLimiter> rateLimiter, BlankKey blankKey, OnFailure onFailure) {
        this.specs = specs;
        this.rateLimiter = rateLimiter;
        this.blankKey = blankKey;
        this.onFailure = onFailure;
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
        Decision decision;
        try {
            decision = this.rateLimiter.get().tryAcquire(requests);
        }
        catch (DataAccessException ex) {
            // Redis could not decide. The script may still have run, so it is never retried: the
            // call follows its limits' on-failure setting instead, and the limiter has logged it.
            decision = onFailure(limits, requests);
        }
        if (!decision.allowed()) {
            return limits.fallBack(target, args, new RateLimitExceededException(decision));
        }
        return invocation.proceed();
    }

    /** A deny decision if any limit of the call denies on failure, else an uncounted allowance. */
    private Decision onFailure(MethodLimits limits, List<LimitRequest> requests) {
        LimitRequest first = requests.get(0);
        for (LimitSpec spec : limits.specs()) {
            OnFailure choice = (spec.onFailure() != null) ? spec.onFailure() : this.onFailure;
            if (choice == OnFailure.DENY && spec.limit().mode() == Limit.Mode.ENFORCE) {
                LimitRequest request = requests.stream()
                    .filter(candidate -> candidate.limitId().equals(spec.limitId()))
                    .findFirst()
                    .orElse(first);
                return new Decision(request.limitId(), request.key(), Decision.Outcome.ERROR, request.limit().max(),
                        0, 0, FAILURE_RETRY, Duration.ZERO, false, false, false);
            }
        }
        return new Decision(first.limitId(), first.key(), Decision.Outcome.ALLOWED, first.limit().max(), 0,
                first.limit().max(), Duration.ZERO, Duration.ZERO, false, false, false);
    }

}
