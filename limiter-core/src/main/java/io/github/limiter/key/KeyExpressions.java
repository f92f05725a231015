package io.github.limiter.key;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Parses key and cost expressions once, when a method's limit is first resolved, so that calls
 * only evaluate them.
 *
 * <p>Internal API; it may change in any release.
 */
public final class KeyExpressions {

    private final SpelExpressionParser parser = new SpelExpressionParser();

    // Uses -parameters names where compiled with them, then Spring's other discoverers.
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final @Nullable BeanResolver beanResolver;

    /**
     * Creates a parser whose expressions resolve {@code @beanName} against {@code beanFactory}.
     * @param beanFactory the bean factory, or {@code null} for expressions without bean references
     */
    public KeyExpressions(@Nullable BeanFactory beanFactory) {
        this.beanResolver = (beanFactory != null) ? new BeanFactoryResolver(beanFactory) : null;
    }

    /**
     * Parses a key expression.
     * @param expression the SpEL text; blank for one key shared by every caller
     * @return the parsed expression
     * @throws ParseException if the text is not valid SpEL
     */
    public KeyExpression parse(String expression) {
        if (expression.isBlank()) {
            return KeyExpression.SHARED;
        }
        Expression parsed = this.parser.parseExpression(expression);
        return new KeyExpression.Spel(expression, parsed, this.parameterNames, this.beanResolver);
    }

    /**
     * Parses a cost: a whole number, or a SpEL expression.
     * @param cost the text; blank for one permit per call
     * @return the parsed cost
     * @throws ParseException if the text is neither a whole number nor valid SpEL
     */
    public CostExpression parseCost(String cost) {
        String text = cost.trim();
        if (text.isEmpty()) {
            return CostExpression.ONE;
        }
        if (text.matches("-?\\d{1,18}")) {
            return new CostExpression.Literal(Long.parseLong(text));
        }
        return new CostExpression.Spel(text, this.parser.parseExpression(text), this.parameterNames,
                this.beanResolver);
    }

}
