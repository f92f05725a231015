package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.BeanResolver;
import org.springframework.expression.ConstructorResolver;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.IndexAccessor;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.OperatorOverloader;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.TypeComparator;
import org.springframework.expression.TypeConverter;
import org.springframework.expression.TypeLocator;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * The evaluation context of one call: its arguments as variables and root object; everything else
 * (property accessors, method resolvers, types, beans) from one shared context, so their caches
 * outlive the call. Variables an expression assigns stay in this call.
 */
final class CallContext implements EvaluationContext {

    private final StandardEvaluationContext shared;

    private final CallVariables calls;

    private final Method method;

    private final @Nullable Object[] args;

    private @Nullable Map<String, @Nullable Object> assigned;

    CallContext(StandardEvaluationContext shared, CallVariables calls, Method method, @Nullable Object[] args) {
        this.shared = shared;
        this.calls = calls;
        this.method = method;
        this.args = args;
    }

    @Override
    public @Nullable Object lookupVariable(String name) {
        if (this.assigned != null && this.assigned.containsKey(name)) {
            return this.assigned.get(name);
        }
        int index = this.calls.index(name);
        if (index < 0 && this.calls.builtIns()) {
            if (name.equals(CallVariables.ARGS)) {
                return this.calls.arguments(this.args);
            }
            if (name.equals(CallVariables.METHOD)) {
                return this.method;
            }
        }
        if (index < 0 && name.equals(CallVariables.CLIENT_IP)) {
            return WebRequests.current();
        }
        return CallVariables.argument(this.args, index);
    }

    @Override
    public void setVariable(String name, @Nullable Object value) {
        if (this.assigned == null) {
            this.assigned = new HashMap<>();
        }
        this.assigned.put(name, value);
    }

    @Override
    public TypedValue getRootObject() {
        return new TypedValue(this.calls.arguments(this.args));
    }

    @Override
    public List<PropertyAccessor> getPropertyAccessors() {
        return this.shared.getPropertyAccessors();
    }

    @Override
    public List<IndexAccessor> getIndexAccessors() {
        return this.shared.getIndexAccessors();
    }

    @Override
    public List<ConstructorResolver> getConstructorResolvers() {
        return this.shared.getConstructorResolvers();
    }

    @Override
    public List<MethodResolver> getMethodResolvers() {
        return this.shared.getMethodResolvers();
    }

    @Override
    public @Nullable BeanResolver getBeanResolver() {
        return this.shared.getBeanResolver();
    }

    @Override
    public TypeLocator getTypeLocator() {
        return this.shared.getTypeLocator();
    }

    @Override
    public TypeConverter getTypeConverter() {
        return this.shared.getTypeConverter();
    }

    @Override
    public TypeComparator getTypeComparator() {
        return this.shared.getTypeComparator();
    }

    @Override
    public OperatorOverloader getOperatorOverloader() {
        return this.shared.getOperatorOverloader();
    }

}
