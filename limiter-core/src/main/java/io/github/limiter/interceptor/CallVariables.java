package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * The SpEL view of the calls of one method, shared by its key and cost expressions: arguments by
 * name and position, {@code #args}, {@code #method} and {@code @beanName}.
 *
 * <p>Parameter names are discovered once, here, not on every call; each call gets a small
 * {@link CallContext} over its arguments, and shares the resolvers and their caches of one
 * {@link StandardEvaluationContext}.
 *
 * <p>A Kotlin {@code suspend} function's parameters are those its developer wrote: its trailing
 * continuation has no name, no position and is not in {@code #args}.
 */
final class CallVariables {

    /** The variables that are not parameters; they win over parameters of the same name. */
    static final String ARGS = "args";

    static final String METHOD = "method";

    /** The client's address in a web request (see {@link WebRequests}); a parameter of that name wins. */
    static final String CLIENT_IP = "clientIp";

    private final StandardEvaluationContext shared;

    // name -> argument index: a0, p0 and the discovered name of each parameter
    private final Map<String, Integer> parameters;

    // a suspend function's #args leave its continuation out
    private final boolean suspending;

    // a request rule's variables are its signature's parameters alone: #method is the HTTP method
    private final boolean builtIns;

    CallVariables(StandardEvaluationContext shared, Method method, ParameterNameDiscoverer parameterNames) {
        this.shared = shared;
        this.parameters = parameters(method, parameterNames);
        this.suspending = SuspendFunctions.isSuspending(method);
        this.builtIns = !RequestRules.isSignature(method);
    }

    /**
     * Names the arguments as Spring's {@code MethodBasedEvaluationContext} does: {@code a<i>} and
     * {@code p<i>}, then the parameter's name if known; a later name wins over an earlier equal one.
     * Kotlin's names of a suspend function leave its continuation out, the compiler's
     * ({@code -java-parameters}) name it {@code $completion}: either way it is not named here.
     */
    private static Map<String, Integer> parameters(Method method, ParameterNameDiscoverer parameterNames) {
        String[] names = parameterNames.getParameterNames(method);
        Map<String, Integer> parameters = new HashMap<>();
        for (int i = 0; i < SuspendFunctions.parameterCount(method); i++) {
            parameters.put("a" + i, i);
            parameters.put("p" + i, i);
            if (names != null && i < names.length && names[i] != null) {
                parameters.put(names[i], i);
            }
        }
        return Map.copyOf(parameters);
    }

    /** Returns the index of the argument a variable names, or -1 if it names none. */
    int index(String variable) {
        if (this.builtIns && (variable.equals(ARGS) || variable.equals(METHOD))) {
            return -1;
        }
        Integer index = this.parameters.get(variable);
        return (index != null) ? index : -1;
    }

    /** Whether {@code #args} and {@code #method} are the call's: not in a request rule's expressions. */
    boolean builtIns() {
        return this.builtIns;
    }

    /** The arguments as {@code #args} and the root object show them: those the caller passed. */
    @Nullable Object[] arguments(@Nullable Object[] args) {
        return (this.suspending && args != null && args.length > 0) ? Arrays.copyOf(args, args.length - 1) : args;
    }

    /** Whether an expression reads {@code #clientIp} and no parameter has that name. */
    boolean readsClientIp(Expression expression) {
        return index(CLIENT_IP) < 0 && ExpressionVariables.read(expression).contains(CLIENT_IP);
    }

    EvaluationContext context(Method method, @Nullable Object[] args) {
        return new CallContext(this.shared, this, method, args);
    }

    /** The argument a variable names, or {@code null} if it names none or the call has fewer. */
    static @Nullable Object argument(@Nullable Object[] args, int index) {
        return (index >= 0 && args != null && index < args.length) ? args[index] : null;
    }

}
