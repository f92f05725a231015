package io.github.limiter.interceptor;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The members an expression reads from a parameter, checked at start against the parameter's
 * declared class, as far as the chain's types are known: {@code #userId.toUppercase()} on a
 * {@code String}, or {@code #form.usr} on a {@code Form} without it, would fail every call. A chain
 * is followed while each type is a concrete class; an interface, an abstract class or
 * {@code Object} may be anything at run time, so the check stops there, and so it does at any step
 * other than a property or a method (an index, a projection).
 */
final class ExpressionMembers {

    private ExpressionMembers() {
    }

    /**
     * Returns what the expression reads that the declared classes do not have, or {@code null}.
     * @param expression the parsed expression
     * @param method the method whose calls it is evaluated for
     * @param parameterIndex the index of the parameter a variable names, or -1 for none
     * @return the problem, for the start-up failure, or {@code null}
     */
    static @Nullable String problem(Expression expression, Method method, ToIntFunction<String> parameterIndex) {
        return (expression instanceof SpelExpression spel) ? walk(spel.getAST(), method, parameterIndex) : null;
    }

    private static @Nullable String walk(SpelNode node, Method method, ToIntFunction<String> parameterIndex) {
        if (node instanceof CompoundExpression && node.getChildCount() > 1
                && node.getChild(0) instanceof VariableReference variable) {
            String problem = chain(node, variable.toStringAST(), method, parameterIndex);
            if (problem != null) {
                return problem;
            }
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            String problem = walk(node.getChild(i), method, parameterIndex);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static @Nullable String chain(SpelNode chain, String variable, Method method,
            ToIntFunction<String> parameterIndex) {
        String name = variable.substring(1);
        int index = (name.equals(CallVariables.ARGS) || name.equals(CallVariables.METHOD)) ? -1
                : parameterIndex.applyAsInt(name);
        if (index < 0 || index >= method.getParameterCount()) {
            return null;
        }
        Class<?> type = method.getParameterTypes()[index];
        String read = variable;
        for (int i = 1; i < chain.getChildCount() && checkable(type); i++) {
            SpelNode step = chain.getChild(i);
            Found next;
            if (step instanceof PropertyOrFieldReference property) {
                next = property(type, property.getName());
                if (next == null) {
                    return "reads " + property.getName() + " of " + read + ", a " + type.getSimpleName()
                            + ", which has no such property (no get" + StringUtils.capitalize(property.getName())
                            + "(), is" + StringUtils.capitalize(property.getName()) + "(), " + property.getName()
                            + "() or public field " + property.getName() + "): every call would fail";
                }
                read = read + "." + property.getName();
            }
            else if (step instanceof MethodReference call) {
                next = method(type, call.getName(), call.getChildCount());
                if (next == null) {
                    return "calls " + call.getName() + " on " + read + ", a " + type.getSimpleName()
                            + ", which has no public method " + call.getName() + " taking " + call.getChildCount()
                            + " argument" + ((call.getChildCount() == 1) ? "" : "s") + alike(type, call.getName())
                            + ": every call would fail";
                }
                read = read + "." + call.getName() + "()";
            }
            else {
                return null;
            }
            if (next.type() == null) {
                return null;
            }
            type = next.type();
        }
        return null;
    }

    /** A class whose members are known at start: a concrete class other than {@code Object}. */
    private static boolean checkable(Class<?> type) {
        Class<?> boxed = ClassUtils.resolvePrimitiveIfNecessary(type);
        return boxed != Object.class && !boxed.isInterface() && !boxed.isArray()
                && !Modifier.isAbstract(boxed.getModifiers());
    }

    /**
     * A readable property, with the type it gives, or {@code null} if there is none.
     */
    private static @Nullable Found property(Class<?> type, String name) {
        Class<?> boxed = ClassUtils.resolvePrimitiveIfNecessary(type);
        String capitalized = StringUtils.capitalize(name);
        for (String getter : List.of("get" + capitalized, "is" + capitalized, name)) {
            Method reader = ClassUtils.getMethodIfAvailable(boxed, getter);
            if (reader != null && Modifier.isPublic(reader.getModifiers()) && reader.getReturnType() != void.class) {
                return new Found(reader.getReturnType());
            }
        }
        for (Field field : boxed.getFields()) {
            if (field.getName().equals(name)) {
                return new Found(field.getType());
            }
        }
        return null;
    }

    /**
     * The public methods of that name that take that many arguments, with the type they return if
     * they all return one, or {@code null} if there is none.
     */
    private static @Nullable Found method(Class<?> type, String name, int arguments) {
        Class<?> boxed = ClassUtils.resolvePrimitiveIfNecessary(type);
        List<Class<?>> returns = Arrays.stream(boxed.getMethods())
            .filter((candidate) -> candidate.getName().equals(name))
            .filter((candidate) -> candidate.getParameterCount() == arguments
                    || (candidate.isVarArgs() && arguments >= candidate.getParameterCount() - 1))
            .<Class<?>>map(Method::getReturnType)
            .distinct()
            .toList();
        if (returns.isEmpty()) {
            return null;
        }
        return new Found((returns.size() == 1) ? returns.get(0) : null);
    }

    /** A method of a name alike but for case, such as {@code toUpperCase} for {@code toUppercase}. */
    private static String alike(Class<?> type, String name) {
        return Arrays.stream(ClassUtils.resolvePrimitiveIfNecessary(type).getMethods())
            .map(Method::getName)
            .filter((candidate) -> candidate.equalsIgnoreCase(name) && !candidate.equals(name))
            .findFirst()
            .map((candidate) -> "; did you mean " + candidate + "?")
            .orElse("");
    }

    /**
     * A member an expression reads.
     * @param type what reading it gives, or {@code null} where that is not known at start
     */
    private record Found(@Nullable Class<?> type) {
    }

}
