package io.github.limiter.key;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationContext;

/**
 * The SpEL view of one call, shared by key and cost expressions: arguments by name and position,
 * {@code #args}, {@code #method} and {@code @beanName}.
 */
final class Calls {

    private Calls() {
    }

    static EvaluationContext context(Method method, @Nullable Object[] args, ParameterNameDiscoverer parameterNames,
            @Nullable BeanResolver beanResolver) {
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(args, method, args, parameterNames);
        context.setVariable("args", args);
        context.setVariable("method", method);
        if (beanResolver != null) {
            context.setBeanResolver(beanResolver);
        }
        return context;
    }

}
