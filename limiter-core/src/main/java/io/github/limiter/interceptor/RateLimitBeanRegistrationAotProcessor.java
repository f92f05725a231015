package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;

/**
 * Registers, for each bean with {@link RateLimit @RateLimit} methods, the reflection that a native
 * image needs for them: the limited methods, which the advisor's pointcut finds by introspection and
 * the proxy calls by reflection; the fallback each names, which the interceptor finds and calls by
 * reflection; and, for a key or cost written in SpEL, the public methods of the declared types of
 * the method's parameters, through which SpEL reads properties such as {@code #order.customerId}, and
 * for an {@code actualCost} its result's type ({@code #result.usage()}) too.
 *
 * <p>Methods are resolved as the advisor resolves them at run time: the method most specific to the
 * bean's class, with its own annotations or else its class's, and the fallback looked up in the
 * bean's class. What only the running application knows stays the application's to register: the
 * classes of arguments that are subclasses or implementations of the declared types, the types of
 * nested properties, and beans named in expressions. Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class RateLimitBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

    // parses only, to tell SpEL from a lone argument; never evaluates, so no bean factory
    private final KeyExpressions expressions = new KeyExpressions(null);

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
        if (!AnnotationUtils.isCandidateClass(beanClass, RateLimit.class)) {
            return null;
        }
        Set<Method> methods = new LinkedHashSet<>();
        Set<Class<?>> argumentTypes = new LinkedHashSet<>();
        for (Method method : beanClass.getMethods()) {
            if (LimitSpecs.limitable(method)) {
                collect(AopUtils.getMostSpecificMethod(method, beanClass), beanClass, methods, argumentTypes);
            }
        }
        if (methods.isEmpty()) {
            return null;
        }
        return (generationContext, beanRegistrationCode) -> {
            ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
            methods.forEach((method) -> reflection.registerMethod(method, ExecutableMode.INVOKE));
            argumentTypes.forEach((type) -> reflection.registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS));
        };
    }

    private void collect(Method method, Class<?> beanClass, Set<Method> methods, Set<Class<?>> argumentTypes) {
        Set<RateLimit> annotations = LimitSpecs.annotations(method, beanClass);
        if (annotations.isEmpty()) {
            return;
        }
        methods.add(method);
        try {
            Method fallback = Fallbacks.limits(List.of(), ReturnType.VALUE, annotations, method, beanClass).fallback();
            if (fallback != null) {
                methods.add(fallback);
            }
        }
        catch (InvalidRateLimitException ex) {
            // the application's start fails with it, as it does without AOT
        }
        boolean settles = annotations.stream().anyMatch((annotation) -> !annotation.actualCost().isBlank());
        if (settles || annotations.stream().anyMatch((annotation) -> writtenInSpel(annotation, method))) {
            for (Class<?> type : method.getParameterTypes()) {
                Class<?> element = elementType(type);
                if (!element.isPrimitive()) {
                    argumentTypes.add(element);
                }
            }
        }
        if (settles) {
            // what #result and #exception read: the value the method returns, or its future or Mono completes with
            Class<?> result = resultType(method, beanClass);
            if (result != null && !result.isPrimitive() && result != Object.class) {
                argumentTypes.add(result);
            }
            argumentTypes.add(Throwable.class);
        }
    }

    private static @Nullable Class<?> resultType(Method method, Class<?> beanClass) {
        ResolvableType returned = ResolvableType.forMethodReturnType(method, beanClass);
        Class<?> raw = returned.resolve();
        if (raw == null) {
            return null;
        }
        boolean deferred = CompletionStage.class.isAssignableFrom(raw)
                || ReactiveAdapterRegistry.getSharedInstance().getAdapter(raw) != null;
        return deferred ? returned.getGeneric(0).resolve() : raw;
    }

    private boolean writtenInSpel(RateLimit annotation, Method method) {
        try {
            return this.expressions.parse(annotation.key(), method) instanceof KeyExpression.Spel
                    || this.expressions.parseCost(annotation.cost(), method) instanceof CostExpression.Spel;
        }
        catch (ParseException ex) {
            return false; // the start fails with it, as it does without AOT
        }
    }

    private static Class<?> elementType(Class<?> type) {
        return type.isArray() ? elementType(type.getComponentType()) : type;
    }

}
