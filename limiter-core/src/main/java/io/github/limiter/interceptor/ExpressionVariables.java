package io.github.limiter.interceptor;

import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * The variables a parsed expression reads ({@code #name}, {@code #fn(...)}), found by walking its
 * syntax tree once, at start-up: those it assigns itself, {@code #root} and {@code #this} are not
 * counted.
 */
final class ExpressionVariables {

    private ExpressionVariables() {
    }

    static Set<String> read(Expression expression) {
        Set<String> read = new LinkedHashSet<>();
        if (expression instanceof SpelExpression spel) {
            Set<String> assigned = new LinkedHashSet<>();
            walk(spel.getAST(), read, assigned);
            read.removeAll(assigned);
        }
        read.remove("root");
        read.remove("this");
        return read;
    }

    private static void walk(SpelNode node, Set<String> read, Set<String> assigned) {
        if (node instanceof Assign && node.getChildCount() > 0 && node.getChild(0) instanceof VariableReference target) {
            assigned.add(name(target));
        }
        else if (node instanceof VariableReference variable) {
            read.add(name(variable));
        }
        else if (node instanceof FunctionReference function) {
            String text = function.toStringAST();
            int parenthesis = text.indexOf('(');
            read.add(text.substring(1, (parenthesis >= 0) ? parenthesis : text.length()));
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            walk(node.getChild(i), read, assigned);
        }
    }

    private static String name(VariableReference variable) {
        return variable.toStringAST().substring(1);
    }

}
