package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import org.springframework.expression.ParseException;

/**
 * Parses the SpEL attributes of one limit being resolved ({@code key}, {@code cost},
 * {@code condition}, ...) and checks the variables they read, so that an expression that could
 * only fail or read null on every call fails the start instead, naming the attribute.
 *
 * @param expressions parses and inspects the expressions
 * @param method the limited method, whose parameters are the expressions' variables
 * @param sources where the attributes were written, for messages
 */
record AttributeExpressions(KeyExpressions expressions, Method method, AttributeSources sources) {

    /**
     * Parses an attribute's expression and checks the variables it reads.
     * @param attribute the attribute
     * @param value the attribute as written
     * @param expression the expression in it
     * @param parser parses the expression for the method
     * @param invalidSyntax what a message says before the parser's own words
     */
    <T> T parsed(String attribute, String value, String expression, BiFunction<String, Method, T> parser,
            String invalidSyntax) {
        T parsed;
        try {
            parsed = parser.apply(expression, this.method);
        }
        catch (ParseException ex) {
            throw this.sources.failure(attribute, value, invalidSyntax + ex.getMessage(), ex);
        }
        checkVariables(attribute, value, expression);
        String unreadable = this.expressions.unreadableMember(expression, this.method);
        if (unreadable != null) {
            throw this.sources.invalid(attribute, value, unreadable);
        }
        return parsed;
    }

    /** A variable that names no parameter would read null on every call: fail the start instead. */
    private void checkVariables(String attribute, String value, String expression) {
        boolean afterCall = attribute.equals("actualCost");
        List<String> unknown = this.expressions.unknownVariables(expression, this.method)
            .stream()
            .filter((name) -> !afterCall || !ActualCost.VARIABLES.contains(name))
            .toList();
        if (!unknown.isEmpty()) {
            String names = unknown.stream().map((name) -> "#" + name).collect(Collectors.joining(", "));
            String which = (unknown.size() == 1) ? "is" : "are";
            throw this.sources.invalid(attribute, value, "reads " + names + ", which " + which
                    + ((this.sources.rule() != null) ? " not a variable of a request rule: "
                            : " neither a parameter of the method nor a variable the limiter provides: ")
                    + this.expressions.describeVariables(this.method) + (afterCall ? ActualCost.ALSO : ""));
        }
    }

}
