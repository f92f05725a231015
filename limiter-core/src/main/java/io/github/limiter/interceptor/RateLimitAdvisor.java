package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.LimitDescription;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.policy.PolicyOverrides;
import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * The advisor that applies {@link RateLimit @RateLimit} to Spring beans. Any auto-proxy creator in
 * the context picks it up; the starter registers both.
 *
 * <p>Matching a bean's methods resolves and validates their limits, so an invalid annotation fails
 * the bean's creation, and so the application's start, with an {@link InvalidRateLimitException}.
 *
 * <p>It runs at order {@value #DEFAULT_ORDER}: after Spring Security's method authorization
 * (orders 100 to 600), before transactions and other advice at the default lowest precedence, so a
 * rejected call opens no transaction.
 *
 * @since 0.1.0
 */
public class RateLimitAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    /** The advisor's default order. */
    public static final int DEFAULT_ORDER = 1000;

    /**
     * Where a web request's client address is put for {@code #clientIp} in key expressions: the
     * name of a request attribute in Spring MVC, the key of a Reactor context entry in Spring
     * WebFlux. The Spring Boot starter's web support puts the address the server resolved there,
     * an IPv6 address as its /64 network.
     */
    public static final String CLIENT_IP_ATTRIBUTE = "io.github.limiter.clientIp";

    /**
     * Where a web request keeps the listener of the decisions of the limited calls made for it: a
     * request attribute in Spring MVC, an entry of the subscriber's Reactor context in Spring
     * WebFlux. The listener is told every decision of every limited call made in the request,
     * whatever the method returns, on whatever thread the decision completes: the Spring Boot
     * starter's web support puts one there, which writes the rate-limit headers.
     */
    public static final String CALL_LISTENER_ATTRIBUTE = "io.github.limiter.callListener";

    private final transient LimitSpecs specs;

    private final transient Advice advice;

    private final transient PolicyOverrides overrides;

    private final transient Pointcut pointcut;

    private final transient Supplier<Settings> settings;

    // the limits of request rules, resolved when the web support creates its filters
    private final transient List<LimitSpec> ruleSpecs = new CopyOnWriteArrayList<>();

    private final transient RequestRules requestRules;

    /**
     * Creates the advisor.
     * @param rateLimiter supplies the limiter on first use, so creating the advisor early does not
     * create the Redis connection early
     * @param beanFactory resolves {@code @beanName} in key expressions; may be {@code null}
     */
    public RateLimitAdvisor(Supplier<RateLimiter> rateLimiter, @Nullable BeanFactory beanFactory) {
        this(rateLimiter, beanFactory, () -> new Settings(Map.of(), BlankKey.REJECT, OnFailure.ALLOW));
    }

    /**
     * Creates the advisor with settings read on first use: when the first {@code @RateLimit}
     * annotation is found, or the first limited call is made. Advisors are created before other
     * beans; a supplier keeps the beans the settings come from (such as configuration properties)
     * from being created that early.
     * @param rateLimiter supplies the limiter on first use
     * @param beanFactory resolves {@code @beanName} in key expressions; may be {@code null}
     * @param settings supplies the policies and defaults, once
     * @since 0.1.0
     */
    public RateLimitAdvisor(Supplier<RateLimiter> rateLimiter, @Nullable BeanFactory beanFactory,
            Supplier<Settings> settings) {
        Supplier<Settings> once = SingletonSupplier.of(settings);
        this.settings = once;
        UnaryOperator<String> placeholders = (beanFactory instanceof ConfigurableBeanFactory configurable)
                ? configurable::resolveEmbeddedValue : UnaryOperator.identity();
        KeyExpressions keyExpressions = new KeyExpressions(beanFactory);
        this.specs = new LimitSpecs(keyExpressions, once, placeholders, new ProxyChecks(beanFactory));
        this.overrides = new PolicyOverrides(new PolicyOverrides.Limits() {

            @Override
            public Map<String, LimitPolicy> policies() {
                return once.get().policies();
            }

            @Override
            public List<LimitSpec> using(String policy) {
                return declared()
                    .flatMap((spec) -> spec.variants().stream())
                    .filter((spec) -> policy.equals(spec.policy()))
                    .distinct()
                    .toList();
            }

        });
        // the RateLimitListener beans hear of limits skipped for a blank key; looked up on the first skip
        Supplier<List<RateLimitListener>> listeners = SingletonSupplier.of(() -> (beanFactory != null)
                ? beanFactory.getBeanProvider(RateLimitListener.class).orderedStream().toList() : List.of());
        RateLimitInterceptor interceptor = new RateLimitInterceptor(this.specs, SingletonSupplier.of(rateLimiter),
                once, listeners, this.overrides);
        this.advice = interceptor;
        this.requestRules = new RequestRules(keyExpressions, once, interceptor, this.ruleSpecs::add);
        this.pointcut = new RateLimitPointcut(this.specs);
        setOrder(DEFAULT_ORDER);
    }

    /**
     * Returns every limit the advisor has resolved: those of the beans created so far, which after
     * the application's start are all its singletons, and those of the {@linkplain #requestRules()
     * request rules}. Each is described as it applies now, with the {@linkplain #overrides() policy
     * overrides} in force.
     * @return the limits, by limit id
     */
    public List<LimitDescription> limits() {
        return declared()
            .flatMap(spec -> spec.describe(this.overrides).stream())
            .distinct()
            .sorted(Comparator.comparing(LimitDescription::limitId))
            .toList();
    }

    /**
     * Says whether calls are refused while Redis cannot decide: whether any enforced limit the
     * advisor has resolved (those of the beans created so far, which after the application's start
     * are all its singletons) denies on failure, by its own setting or by the default.
     * @return {@code true} if some limit fails closed
     * @since 0.1.0
     */
    public boolean failsClosed() {
        OnFailure byDefault = this.settings.get().onFailure();
        return declared()
            .flatMap(spec -> spec.variants().stream())
            .anyMatch(spec -> spec.limit().mode() == Limit.Mode.ENFORCE
                    && ((spec.onFailure() != null) ? spec.onFailure() : byDefault) == OnFailure.DENY);
    }

    /** The limits of the beans resolved so far and of the request rules. */
    private Stream<LimitSpec> declared() {
        return Stream.concat(this.specs.resolved().stream().flatMap((limits) -> limits.specs().stream()),
                this.ruleSpecs.stream());
    }

    /**
     * Returns the limits of web requests matched by rule rather than by annotation, which the
     * Spring Boot starter's web support resolves from {@code limiter.web.rules} and applies in
     * front of the application's handlers. Their limits are listed, overridden and counted as the
     * annotations' are.
     * @return the request rules
     * @since 0.1.0
     */
    public RequestRules requestRules() {
        return this.requestRules;
    }

    /**
     * Returns the policy overrides this advisor's limits follow: changes of a policy's values made
     * while the application runs.
     * @return the overrides
     */
    public PolicyOverrides overrides() {
        return this.overrides;
    }

    @Override
    public Pointcut getPointcut() {
        return this.pointcut;
    }

    @Override
    public Advice getAdvice() {
        return this.advice;
    }

    /**
     * Registers, with a framework's registry, the adapter of the {@code CompletableFuture}s that
     * limited methods return: the publisher a framework such as Spring WebFlux adapts one to tells
     * the {@link RateLimitListener} of its subscriber's Reactor context (under the key
     * {@link #CALL_LISTENER_ATTRIBUTE}) the call's decision, as a limited {@code Mono} or
     * {@code Flux} does, so that the starter's reactive web support can write it into the
     * response's rate-limit headers. Every other {@code CompletionStage} keeps the registry's own
     * adapter. Needs Reactor on the classpath.
     * @param registry the registry through which a framework adapts results, such as Spring
     * WebFlux's {@code webFluxAdapterRegistry} bean
     * @since 0.1.0
     */
    public static void registerFutureAdapter(ReactiveAdapterRegistry registry) {
        LimitedFutures.registerAdapter(registry);
    }

    /**
     * The advisor's settings.
     *
     * @param policies the named policies for {@code @RateLimit(policy = "...")}
     * @param blankKey what a call whose key evaluates to nothing gets
     * @param onFailure what a limited call gets while Redis cannot decide, unless its limit says
     * @param defaultPolicy the policy of a call whose {@code policy = "#{...}"} names none, or
     * {@code null} to refuse such a call with an {@link IllegalStateException}
     * @param localShare the share of each limit's {@code max} an instance allows while it decides
     * in memory ({@link OnFailure#LOCAL}), above 0 and at most 1: {@code 0.25} for four instances
     * keeps the fleet near {@code max}
     * @since 0.1.0
     */
    public record Settings(Map<String, LimitPolicy> policies, BlankKey blankKey, OnFailure onFailure,
            @Nullable String defaultPolicy, double localShare) {

        /**
         * Creates the settings.
         * @param policies the named policies for {@code @RateLimit(policy = "...")}
         * @param blankKey what a call whose key evaluates to nothing gets
         * @param onFailure what a limited call gets while Redis cannot decide, unless its limit says
         * @param defaultPolicy the policy of a call whose chosen policy is not defined, or {@code null}
         * @param localShare the share of {@code max} an instance allows while it decides in memory
         * @throws IllegalArgumentException if {@code localShare} is not above 0 and at most 1
         */
        public Settings {
            policies = Map.copyOf(policies);
            Objects.requireNonNull(blankKey, "blankKey must not be null");
            Objects.requireNonNull(onFailure, "onFailure must not be null");
            if (!(localShare > 0 && localShare <= 1)) {
                throw new IllegalArgumentException("localShare must be above 0 and at most 1, not " + localShare);
            }
        }

        /**
         * Creates the settings, each instance allowing all of {@code max} while it decides in memory.
         * @param policies the named policies for {@code @RateLimit(policy = "...")}
         * @param blankKey what a call whose key evaluates to nothing gets
         * @param onFailure what a limited call gets while Redis cannot decide, unless its limit says
         * @param defaultPolicy the policy of a call whose chosen policy is not defined, or {@code null}
         */
        public Settings(Map<String, LimitPolicy> policies, BlankKey blankKey, OnFailure onFailure,
                @Nullable String defaultPolicy) {
            this(policies, blankKey, onFailure, defaultPolicy, 1);
        }

        /**
         * Creates the settings with no default policy.
         * @param policies the named policies for {@code @RateLimit(policy = "...")}
         * @param blankKey what a call whose key evaluates to nothing gets
         * @param onFailure what a limited call gets while Redis cannot decide, unless its limit says
         */
        public Settings(Map<String, LimitPolicy> policies, BlankKey blankKey, OnFailure onFailure) {
            this(policies, blankKey, onFailure, null, 1);
        }

    }

    /**
     * Matches limited methods, resolving and validating their limits. While an application is
     * processed ahead of time, it only tells which methods are limited, for the proxy classes to
     * generate: the advisor is created then before configuration properties are bound, so that the
     * policies are not known; the limits are resolved when the processed application starts.
     */
    private static final class RateLimitPointcut extends StaticMethodMatcherPointcut {

        private final LimitSpecs specs;

        RateLimitPointcut(LimitSpecs specs) {
            this.specs = specs;
            setClassFilter(candidate -> AnnotationUtils.isCandidateClass(candidate, RateLimit.class));
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            // read on each match, not once per class loading: the processor sets it when it starts
            if (Boolean.getBoolean(AbstractAotProcessor.AOT_PROCESSING)) {
                return LimitSpecs.limitable(method) && !LimitSpecs.annotations(
                        AopUtils.getMostSpecificMethod(method, targetClass), ClassUtils.getUserClass(targetClass))
                    .isEmpty();
            }
            return this.specs.find(method, targetClass) != null;
        }

    }

}
