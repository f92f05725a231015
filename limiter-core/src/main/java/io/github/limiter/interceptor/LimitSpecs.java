package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.github.limiter.Algorithm;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.Limit;
import io.github.limiter.annotation.RateLimit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Resolves, validates and caches the limit of each method: once per method and target class, so
 * the per-call path does no annotation lookup and no SpEL parsing. Attributes set on the annotation
 * override those of its policy.
 */
final class LimitSpecs {

    /** Bytes a sliding log's entry takes in Redis: MEMORY USAGE gave 10,969,480 for 100,000 entries. */
    static final long SLIDING_LOG_ENTRY_BYTES = 110;

    /** A key larger than this is worth a warning. */
    static final long LARGE_KEY_BYTES = 1_000_000;

    private static final Log logger = LogFactory.getLog(LimitSpecs.class);

    // resolved once per method and user class (a CGLIB subclass shares its superclass's)
    private final Map<MethodClassKey, Optional<MethodLimits>> resolved = new ConcurrentHashMap<>(256);

    // the same, by method and the class the call is made on: found on every call without allocating
    private final Map<Method, Map<Class<?>, Optional<MethodLimits>>> byCall = new ConcurrentHashMap<>(256);

    private final KeyExpressions keyExpressions;

    // read when the first annotation is found, not when the advisor is created
    private final Supplier<RateLimitAdvisor.Settings> settings;

    // resolves ${...} in the attributes that take placeholders
    private final UnaryOperator<String> placeholders;

    // classes whose methods were checked for limits that could never apply
    private final Set<Class<?>> checkedClasses = ConcurrentHashMap.newKeySet();

    // sliding logs already warned of, by limit id
    private final Set<String> warnedLargeLogs = ConcurrentHashMap.newKeySet();

    // refuses the limits the proxy of a class could never apply
    private final ProxyChecks proxyChecks;

    LimitSpecs(KeyExpressions keyExpressions, Supplier<RateLimitAdvisor.Settings> settings,
            UnaryOperator<String> placeholders, ProxyChecks proxyChecks) {
        this.keyExpressions = keyExpressions;
        this.settings = settings;
        this.placeholders = placeholders;
        this.proxyChecks = proxyChecks;
    }

    /**
     * Returns the limits of {@code method} when called on {@code targetClass}, or {@code null} if it
     * has none.
     * @throws InvalidRateLimitException if one of the method's annotations is invalid
     */
    @Nullable MethodLimits find(Method method, @Nullable Class<?> targetClass) {
        Class<?> type = (targetClass != null) ? targetClass : method.getDeclaringClass();
        Map<Class<?>, Optional<MethodLimits>> byClass = this.byCall.get(method);
        Optional<MethodLimits> found = (byClass != null) ? byClass.get(type) : null;
        if (found == null) {
            Class<?> userClass = ClassUtils.getUserClass(type);
            if (this.checkedClasses.add(userClass)) {
                this.proxyChecks.check(userClass);
            }
            MethodClassKey key = new MethodClassKey(method, userClass);
            found = this.resolved.get(key);
            if (found == null) {
                // not inside computeIfAbsent: resolving may create the beans the policies come from,
                // whose own methods are matched, and so resolved, meanwhile
                Optional<MethodLimits> resolved = resolve(method, userClass);
                Optional<MethodLimits> raced = this.resolved.putIfAbsent(key, resolved);
                found = (raced != null) ? raced : resolved;
            }
            this.byCall.computeIfAbsent(method, (unused) -> new ConcurrentHashMap<>(4)).put(type, found);
        }
        return found.orElse(null);
    }

    /** Returns every limited method resolved so far: the limits of the application's beans. */
    List<MethodLimits> resolved() {
        return this.resolved.values().stream().flatMap(Optional::stream).distinct().toList();
    }

    private Optional<MethodLimits> resolve(Method method, Class<?> targetClass) {
        if (!limitable(method)) {
            return Optional.empty();
        }
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        Set<RateLimit> annotations = annotations(specific, targetClass);
        if (annotations.isEmpty()) {
            return Optional.empty();
        }
        List<LimitSpec> specs = new ArrayList<>(annotations.size());
        Set<String> limitIds = new HashSet<>();
        int position = 0;
        for (RateLimit annotation : annotations) {
            position++;
            for (LimitSpec spec : new AnnotationResolution(annotation, specific, targetClass, position,
                    this.keyExpressions, this.settings.get().policies(), this.placeholders,
                    this.settings.get().defaultPolicy()).specs()) {
                if (!limitIds.add(spec.limitId())) {
                    throw InvalidLimits.of(targetClass, specific, "name", spec.limitId(),
                            "names two limits of the same method; give each its own name", null);
                }
                specs.add(spec);
                spec.variants().forEach(this::warnIfLargeSlidingLog);
            }
        }
        return Optional.of(Fallbacks.limits(List.copyOf(specs), ReturnType.of(specific, targetClass), annotations,
                specific, targetClass));
    }

    /**
     * A sliding log keeps an entry per call in its window, about {@value #SLIDING_LOG_ENTRY_BYTES}
     * bytes each in Redis: past about a megabyte a key, every decision of a busy key and every
     * reset cost Redis time (and memory) in proportion, which a constant-memory algorithm does not.
     * Logged once per limit, at start.
     */
    private void warnIfLargeSlidingLog(LimitSpec spec) {
        Limit limit = spec.limit();
        if (limit.algorithm() == Algorithm.SLIDING_LOG && limit.max() * SLIDING_LOG_ENTRY_BYTES > LARGE_KEY_BYTES
                && this.warnedLargeLogs.add(spec.limitId())) {
            logger.warn("Rate limit '" + spec.limitId() + "' of " + spec.method() + " is a SLIDING_LOG of max "
                    + limit.max() + ": a key that reaches it holds about " + (limit.max() * SLIDING_LOG_ENTRY_BYTES
                    / 1_000_000) + " MB in Redis, an entry per call. SLIDING_WINDOW counts as smoothly in about 160 "
                    + "bytes a key, whatever the max (docs/algorithms.md)");
        }
    }

    /** Whether a method could be limited at all: a public instance method not of {@link Object}. */
    static boolean limitable(Method method) {
        return Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
                && method.getDeclaringClass() != Object.class;
    }

    /**
     * The annotations that limit a method: its own, or else its class's; empty if none.
     * @param specific the method as declared by, or most specific to, the target class
     * @param targetClass the user class the method is called on
     */
    static Set<RateLimit> annotations(Method specific, Class<?> targetClass) {
        Set<RateLimit> annotations = AnnotatedElementUtils.findMergedRepeatableAnnotations(specific, RateLimit.class);
        return annotations.isEmpty() ? AnnotatedElementUtils.findMergedRepeatableAnnotations(targetClass, RateLimit.class)
                : annotations;
    }

}
