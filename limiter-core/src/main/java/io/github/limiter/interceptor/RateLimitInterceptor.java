package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.policy.PolicyOverrides;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Schedulers;

import org.springframework.aop.support.AopUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.util.ClassUtils;

/**
 * Composes one call's decision: find the method's cached limit, resolve the key, ask the
 * {@link RateLimiter}, and proceed or refuse. A method returning a plain value is decided on the
 * calling thread; one returning a {@code CompletionStage} without blocking it; one returning a
 * reactive type once per subscription (see {@link ReactiveCalls}).
 */
final class RateLimitInterceptor implements MethodInterceptor {

    /** What a refused caller is told while Redis cannot decide. */
    private static final Duration FAILURE_RETRY = Duration.ofSeconds(1);

    private static final Log logger = LogFactory.getLog(RateLimitInterceptor.class);

    private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.scheduler.Schedulers",
            RateLimitInterceptor.class.getClassLoader());

    // methods whose blocking decisions were seen on a non-blocking thread: each is logged once
    private final Set<Method> blockingOnEventLoop = ConcurrentHashMap.newKeySet();

    // limits that skipped a call for a blank key: each is logged once
    private final Set<String> skippedLimits = ConcurrentHashMap.newKeySet();

    private final FailedExpressions failedExpressions = new FailedExpressions();

    private final LimitSpecs specs;

    private final Supplier<RateLimiter> rateLimiter;

    private final Supplier<RateLimitAdvisor.Settings> settings;

    private final Supplier<List<RateLimitListener>> listeners;

    private final PolicyOverrides overrides;

    private final LocalLimits localLimits = new LocalLimits();

    RateLimitInterceptor(LimitSpecs specs, Supplier<RateLimiter> rateLimiter,
            Supplier<RateLimitAdvisor.Settings> settings, Supplier<List<RateLimitListener>> listeners,
            PolicyOverrides overrides) {
        this.specs = specs;
        this.rateLimiter = rateLimiter;
        this.settings = settings;
        this.listeners = listeners;
        this.overrides = overrides;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        MethodLimits limits = this.specs.find(method, (target != null) ? AopUtils.getTargetClass(target) : null);
        if (limits == null) {
            return invocation.proceed();
        }
        ReturnType.Kind kind = limits.returns().kind();
        if (kind == ReturnType.Kind.PUBLISHER && limits.readsClientIp()) {
            // resolved per subscription, where a reactive web request's address is known
            RateLimitListener ofRequest = WebRequests.callListener();
            Object[] args = invocation.getArguments();
            return ReactiveCalls.perSubscription(invocation, limits,
                    (address) -> WebRequests.within(address, () -> requests(limits, method, args)),
                    (sameLimits, sameRequests, fromContext) -> decideAsync(sameLimits, sameRequests,
                            CallListener.both(ofRequest, fromContext)),
                    () -> settlement(limits, invocation));
        }
        List<LimitRequest> requests;
        try {
            requests = requests(limits, method, invocation.getArguments());
        }
        catch (RuntimeException ex) {
            // a result that signals its errors gets this one as a signal too
            return switch (kind) {
                case VALUE -> throw ex;
                case COMPLETION_STAGE -> CompletableFuture.failedFuture(ex);
                case PUBLISHER -> ReactiveCalls.error(limits.returns(), ex);
            };
        }
        if (requests.isEmpty()) {
            return invocation.proceed();
        }
        return switch (kind) {
            case VALUE -> decideHere(invocation, limits, requests);
            case COMPLETION_STAGE -> decideWithoutBlocking(invocation, limits, requests, WebRequests.callListener(),
                    settlement(limits, invocation));
            case PUBLISHER -> {
                RateLimitListener ofRequest = WebRequests.callListener();
                List<LimitRequest> resolved = requests;
                yield ReactiveCalls.perSubscription(invocation, limits, (address) -> resolved,
                        (sameLimits, sameRequests, fromContext) -> decideAsync(sameLimits, sameRequests,
                                CallListener.both(ofRequest, fromContext)),
                        () -> settlement(limits, invocation));
            }
        };
    }

    /** What settles a call once it ran, if a limit of the method has an actualCost; else {@code null}. */
    private @Nullable Settlement settlement(MethodLimits limits, MethodInvocation invocation) {
        return limits.settles() ? new Settlement(limits, invocation.getMethod(), invocation.getArguments(),
                this.rateLimiter.get()) : null;
    }

    private List<LimitRequest> requests(MethodLimits limits, Method method, @Nullable Object[] args) {
        List<LimitRequest> requests = new ArrayList<>(limits.specs().size());
        BlankKey blankKey = this.settings.get().blankKey();
        for (LimitSpec declared : limits.specs()) {
            LimitRequest request = request(declared, method, args, blankKey);
            if (request != null) {
                requests.add(request);
            }
        }
        return requests;
    }

    /**
     * What one limit asks of the limiter for a call, or {@code null} if its condition or a blank key
     * leaves the call out of it.
     * @param blankKey what a blank key does; {@code null} for {@code limiter.blank-key}
     * @throws BlankRateLimitKeyException if the key is blank and a blank key is refused
     * @throws io.github.limiter.RateLimitExpressionException if an expression of the limit fails
     */
    @Nullable LimitRequest request(LimitSpec declared, Method method, @Nullable Object[] args,
            @Nullable BlankKey blankKey) {
        // which of the limit's expressions is evaluated, should one fail
        String attribute = "condition";
        LimitSpec spec = declared;
        try {
            if (!declared.appliesTo(method, args)) {
                return null;
            }
            attribute = "policy";
            LimitSpec chosen = declared.forCall(method, args);
            if (chosen == null) {
                // the chosen policy has fewer limits than another: this one is not among them
                return null;
            }
            spec = chosen;
            attribute = "key";
            String key = spec.key().resolve(method, args);
            if (key == null) {
                if (((blankKey != null) ? blankKey : this.settings.get().blankKey()) == BlankKey.SKIP) {
                    skipped(spec);
                    return null;
                }
                throw new BlankRateLimitKeyException(spec.limitId(), spec.key().text(), spec.method());
            }
            attribute = "zone";
            Limit limit = spec.limitForCall(this.overrides.limitOf(spec), method, args);
            attribute = "cost";
            return new LimitRequest(spec.limitId(), key, limit, spec.cost().resolve(method, args));
        }
        catch (ExpressionFailure failure) {
            throw this.failedExpressions.failed(spec, attribute, failure);
        }
    }

    /** A skipped limit is logged once per limit, and every skip goes to the listeners (a meter). */
    private void skipped(LimitSpec spec) {
        if (this.skippedLimits.add(spec.limitId())) {
            logger.warn("Rate limit '" + spec.limitId() + "' of " + spec.method() + " was skipped: its key '"
                    + spec.key().text() + "' evaluated to null or a blank string and limiter.blank-key is skip, so "
                    + "the call was not counted under it. Logged once per limit; each skip is counted by the "
                    + "listeners (the meter limiter.skipped)");
        }
        for (RateLimitListener listener : this.listeners.get()) {
            try {
                listener.onSkipped(spec.limitId(), this.overrides.limitOf(spec));
            }
            catch (RuntimeException ex) {
                logger.error("Rate-limit listener " + listener + " failed on a skipped limit", ex);
            }
        }
    }

    private @Nullable Object decideHere(MethodInvocation invocation, MethodLimits limits, List<LimitRequest> requests)
            throws Throwable {
        warnIfOnEventLoop(invocation.getMethod());
        // a settlement hears every limit's decision of this call alone, which settling needs
        Settlement settlement = settlement(limits, invocation);
        Decision decision = decide(limits.specs(), requests, CallListener.both(WebRequests.callListener(),
                settlement));
        if (!decision.allowed()) {
            return limits.fallBack(invocation.getThis(), invocation.getArguments(),
                    new RateLimitExceededException(decision));
        }
        if (settlement == null) {
            return invocation.proceed();
        }
        Object result;
        try {
            result = invocation.proceed();
        }
        catch (Throwable ex) {
            settlement.settle(null, ex).join();
            throw ex;
        }
        settlement.settle(result, null).join();
        return result;
    }

    /**
     * A method returning a plain value cannot wait for Redis without blocking its thread; on an
     * event loop (a WebFlux handler returning {@code String}, say) that is worth one line.
     */
    private void warnIfOnEventLoop(Method method) {
        if (REACTOR_PRESENT && Schedulers.isInNonBlockingThread() && this.blockingOnEventLoop.add(method)) {
            logger.warn("@RateLimit on " + method.getDeclaringClass().getSimpleName() + "." + method.getName()
                    + " decides by blocking its thread, and it was called on the non-blocking thread '"
                    + Thread.currentThread().getName() + "'; return a Mono, a Flux or a CompletableFuture "
                    + "to decide without blocking");
        }
    }

    /**
     * The body runs on the thread that completes the decision, only if the decision allows it.
     * The future is completed by hand, so that a refusal arrives as the exception itself, not
     * wrapped in a {@link CompletionException} built for each refused call.
     */
    private CompletableFuture<Object> decideWithoutBlocking(MethodInvocation invocation, MethodLimits limits,
            List<LimitRequest> requests, @Nullable RateLimitListener ofRequest, @Nullable Settlement settlement) {
        // tells its decision to listeners that come once the method has returned (see LimitedFutures)
        ListenedFuture<Object> result = new ListenedFuture<>();
        RateLimitListener listener = CallListener.both(CallListener.both(ofRequest, result), settlement);
        decideAsync(limits, requests, listener).whenComplete((decision, failure) -> {
            if (failure != null) {
                result.completeExceptionally(unwrap(failure));
                return;
            }
            // a refused call ran nothing, so it has nothing to settle
            Settlement settling = decision.allowed() ? settlement : null;
            CompletionStage<Object> outcome;
            try {
                outcome = stage(decision.allowed() ? invocation.proceed()
                        : limits.fallBack(invocation.getThis(), invocation.getArguments(),
                                new RateLimitExceededException(decision)));
            }
            catch (Throwable ex) {
                complete(result, null, ex, settling);
                return;
            }
            outcome.whenComplete((value, error) -> complete(result, value, (error != null) ? unwrap(error) : null,
                    settling));
        });
        return result;
    }

    /** Completes a call's future as the method's own did, once the call is settled, if it settles. */
    private static void complete(CompletableFuture<Object> result, @Nullable Object value, @Nullable Throwable error,
            @Nullable Settlement settlement) {
        if (settlement == null) {
            completeNow(result, value, error);
            return;
        }
        settlement.settle(value, error).whenComplete((settled, never) -> completeNow(result, value, error));
    }

    private static void completeNow(CompletableFuture<Object> result, @Nullable Object value,
            @Nullable Throwable error) {
        if (error != null) {
            result.completeExceptionally(error);
        }
        else {
            result.complete(value);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
    }

    @SuppressWarnings("unchecked")
    private static CompletionStage<Object> stage(@Nullable Object result) {
        return (result != null) ? (CompletionStage<Object>) result : CompletableFuture.completedFuture(null);
    }

    /**
     * Decides without blocking; a failure to reach Redis becomes the on-failure decision, as on the
     * blocking path.
     * @param listener told about this call's decisions (the web request's, a settlement), or null
     */
    CompletionStage<Decision> decideAsync(MethodLimits limits, List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        return decideAsync(limits.specs(), requests, listener);
    }

    /**
     * Decides on the calling thread; a failure to reach Redis becomes the on-failure decision.
     * @param specs the limits the requests are of, whose on-failure settings apply
     */
    Decision decide(List<LimitSpec> specs, List<LimitRequest> requests, @Nullable RateLimitListener listener) {
        Decision decision = decideOnce(specs, requests, listener);
        return decision.allowed() ? decision
                : Waiting.blocking(specs, decision, () -> decideOnce(specs, requests, listener));
    }

    private Decision decideOnce(List<LimitSpec> specs, List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        try {
            return this.localLimits.redisDecided(this.rateLimiter.get().tryAcquire(requests, listener));
        }
        catch (DataAccessException ex) {
            // Redis could not decide. The script may still have run, so it is never retried: the
            // call follows its limits' on-failure setting instead, and the limiter has logged it.
            return onFailure(specs, requests, listener);
        }
    }

    /**
     * Decides without blocking; a failure to reach Redis becomes the on-failure decision.
     * @param specs the limits the requests are of, whose on-failure settings apply
     */
    CompletionStage<Decision> decideAsync(List<LimitSpec> specs, List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        CompletionStage<Decision> decided = decideOnceAsync(specs, requests, listener);
        return !Waiting.mayWait(specs) ? decided : decided.thenCompose((decision) -> decision.allowed()
                ? CompletableFuture.completedFuture(decision)
                : Waiting.nonBlocking(specs, decision, () -> decideOnceAsync(specs, requests, listener)));
    }

    private CompletionStage<Decision> decideOnceAsync(List<LimitSpec> specs, List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        RateLimiter limiter = this.rateLimiter.get();
        CompletionStage<Decision> decided = limiter.tryAcquireAsync(requests, listener);
        return decided.handle((decision, failure) -> {
            if (failure == null) {
                return this.localLimits.redisDecided(decision);
            }
            Throwable cause = unwrap(failure);
            if (cause instanceof DataAccessException) {
                return onFailure(specs, requests, listener);
            }
            throw (cause instanceof RuntimeException runtime) ? runtime : new CompletionException(cause);
        });
    }

    /**
     * Denied if a limit of the call that is enforced denies on failure, else decided in memory
     * under those that decide locally, else allowed uncounted.
     */
    private Decision onFailure(List<LimitSpec> specs, List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        List<LimitRequest> locally = new ArrayList<>(0);
        for (LimitRequest request : requests) {
            // the limit as the call counts under it: of a policy chosen per call, the chosen one's
            LimitSpec spec = LimitSpec.find(specs, request.limitId());
            OnFailure choice = (spec != null && spec.onFailure() != null) ? spec.onFailure()
                    : this.settings.get().onFailure();
            if (choice == OnFailure.DENY && request.limit().mode() == Limit.Mode.ENFORCE) {
                return Decision.unavailable(request.limitId(), request.key(), request.limit().max(), FAILURE_RETRY);
            }
            if (choice == OnFailure.LOCAL) {
                locally.add(request);
            }
        }
        LimitRequest first = requests.get(0);
        return locally.isEmpty() ? Decision.allow(first.limitId(), first.key(), first.limit().max(), 0, Duration.ZERO)
                : this.localLimits.decide(locally, this.settings.get().localShare(), this.rateLimiter.get(), listener);
    }

}
