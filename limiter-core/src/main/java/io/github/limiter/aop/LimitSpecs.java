package io.github.limiter.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.key.KeyExpression;
import io.github.limiter.key.KeyExpressions;
import io.github.limiter.support.LimitIds;
import io.github.limiter.support.Windows;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;

/**
 * Resolves, validates and caches the limit of each method: once per method and target class, so
 * the per-call path does no annotation lookup and no SpEL parsing.
 */
final class LimitSpecs {

    private final Map<MethodClassKey, Optional<LimitSpec>> cache = new ConcurrentHashMap<>(256);

    private final KeyExpressions keyExpressions;

    LimitSpecs(KeyExpressions keyExpressions) {
        this.keyExpressions = keyExpressions;
    }

    /**
     * Returns the limit of {@code method} when called on {@code targetClass}, or {@code null} if it
     * has none.
     * @throws InvalidRateLimitException if the method's annotation is invalid
     */
    @Nullable LimitSpec find(Method method, @Nullable Class<?> targetClass) {
        Class<?> userClass = ClassUtils.getUserClass((targetClass != null) ? targetClass : method.getDeclaringClass());
        return this.cache.computeIfAbsent(new MethodClassKey(method, userClass), key -> resolve(method, userClass))
            .orElse(null);
    }

    private Optional<LimitSpec> resolve(Method method, Class<?> targetClass) {
        if (!Modifier.isPublic(method.getModifiers()) || Modifier.isStatic(method.getModifiers())
                || method.getDeclaringClass() == Object.class) {
            return Optional.empty();
        }
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        RateLimit annotation = AnnotatedElementUtils.findMergedAnnotation(specific, RateLimit.class);
        if (annotation == null) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(targetClass, RateLimit.class);
        }
        return (annotation != null) ? Optional.of(toSpec(annotation, specific, targetClass)) : Optional.empty();
    }

    private LimitSpec toSpec(RateLimit annotation, Method method, Class<?> targetClass) {
        String limitId = annotation.name().isEmpty() ? targetClass.getSimpleName() + "." + method.getName()
                : annotation.name();
        String idProblem = LimitIds.problemWith(limitId);
        if (idProblem != null) {
            throw invalid(targetClass, method, "name", limitId, idProblem);
        }
        if (annotation.max() < 1) {
            throw invalid(targetClass, method, "max", Long.toString(annotation.max()),
                    (annotation.max() == -1) ? "is not set; set max to the calls allowed per window (at least 1)"
                            : "must be at least 1");
        }
        return new LimitSpec(limitId, parseKey(annotation.key(), method, targetClass), annotation.max(),
                parseWindow(annotation.window(), method, targetClass));
    }

    private Duration parseWindow(String text, Method method, Class<?> targetClass) {
        if (text.isBlank()) {
            throw invalid(targetClass, method, "window", text, "is not set; " + Windows.FORMATS);
        }
        Duration window = Windows.parse(text);
        if (window == null) {
            throw invalid(targetClass, method, "window", text, "is not a duration; " + Windows.FORMATS);
        }
        String problem = Windows.problemWith(window);
        if (problem != null) {
            throw invalid(targetClass, method, "window", text, problem + "; a window is at least 1ms");
        }
        return window;
    }

    private KeyExpression parseKey(String text, Method method, Class<?> targetClass) {
        try {
            return this.keyExpressions.parse(text);
        }
        catch (ParseException ex) {
            throw new InvalidRateLimitException(targetClass, method, "key", text,
                    "is not a valid SpEL expression: " + ex.getMessage(), ex);
        }
    }

    private static InvalidRateLimitException invalid(Class<?> targetClass, Method method, String attribute,
            String value, String problem) {
        return new InvalidRateLimitException(targetClass, method, attribute, value, problem, null);
    }

}
