package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * Parses key and cost expressions once, when a method's limit is first resolved, so that calls
 * only evaluate them. A key that is just one argument ({@code #userId}) is read from the arguments
 * without SpEL.
 */
final class KeyExpressions {

    // #name, but not #root and #this, which SpEL reads as the root object and the current value
    private static final Pattern VARIABLE = Pattern.compile("#(?!(root|this)$)[A-Za-z_$][A-Za-z0-9_$]*");

    // a forwarding header's name, quoted as an expression that reads the header itself quotes it
    private static final Pattern FORWARDING_HEADER = Pattern.compile("(?i)['\"](x-forwarded-for|forwarded)['\"]");

    private static final Log logger = LogFactory.getLog(KeyExpressions.class);

    // each method's key that reads a forwarding header is logged once
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private final SpelExpressionParser parser = new SpelExpressionParser();

    // Uses -parameters names where compiled with them, then Spring's other discoverers.
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    // resolvers, accessors and their caches, shared by every call's context
    private final StandardEvaluationContext shared = new StandardEvaluationContext();

    /**
     * Creates a parser whose expressions resolve {@code @beanName} against {@code beanFactory}.
     * @param beanFactory the bean factory, or {@code null} for expressions without bean references
     */
    public KeyExpressions(@Nullable BeanFactory beanFactory) {
        if (beanFactory != null) {
            this.shared.setBeanResolver(new BeanFactoryResolver(beanFactory));
        }
        // the shared context creates these lazily: create them now, before calls share them
        this.shared.getPropertyAccessors();
        this.shared.getIndexAccessors();
        this.shared.getConstructorResolvers();
        this.shared.getMethodResolvers();
        this.shared.getTypeLocator();
        this.shared.getTypeConverter();
    }

    /**
     * Parses a key expression.
     * @param expression the SpEL text; blank for one key shared by every caller
     * @param method the method whose calls it keys, for the names of its parameters
     * @return the parsed expression
     * @throws ParseException if the text is not valid SpEL
     */
    public KeyExpression parse(String expression, Method method) {
        if (expression.isBlank()) {
            return KeyExpression.SHARED;
        }
        Expression parsed = this.parser.parseExpression(expression);
        warnIfItReadsAForwardingHeader(expression, method);
        CallVariables calls = new CallVariables(this.shared, method, this.parameterNames);
        String text = expression.trim();
        if (VARIABLE.matcher(text).matches()) {
            int index = calls.index(text.substring(1));
            if (index >= 0) {
                return new KeyExpression.Argument(expression, index);
            }
        }
        return new KeyExpression.Spel(expression, parsed, calls, calls.readsClientIp(parsed));
    }

    /**
     * A key read from {@code X-Forwarded-For} or {@code Forwarded} is whatever the client writes
     * there: each forged address a fresh count. Logged once per method and key, at start-up.
     */
    private void warnIfItReadsAForwardingHeader(String expression, Method method) {
        if (FORWARDING_HEADER.matcher(expression).find() && this.warned.add(method + " " + expression)) {
            logger.warn("The rate-limit key '" + expression + "' of " + (RequestRules.isSignature(method)
                    ? "a request rule" : method.getDeclaringClass().getName() + "." + method.getName()) + " reads a forwarding header itself: any client can send X-Forwarded-For "
                    + "or Forwarded with any address, and get a count of its own for each one it makes up. Key on "
                    + "#clientIp, the client's address as the server resolved it: with "
                    + "server.forward-headers-strategy=native, Tomcat, Jetty and Undertow read it from the headers "
                    + "of the proxies they trust (server.tomcat.remoteip.internal-proxies), and no one else's");
        }
    }

    /**
     * Returns the variables an expression reads that name neither a parameter of the method
     * ({@code #name}, {@code #a0}, {@code #p0}) nor a variable the limiter provides
     * ({@code #args}, {@code #method}, {@code #clientIp}), such as a mistyped parameter name: it would read
     * {@code null} on every call.
     * @param expression the SpEL text of a key or cost; a whole number or blank text reads none
     * @param method the method whose calls it is evaluated for
     * @return the unknown names, in the order they appear; empty if there are none
     * @throws ParseException if the text is not valid SpEL
     */
    public List<String> unknownVariables(String expression, Method method) {
        Expression parsed = checked(expression);
        if (parsed == null) {
            return List.of();
        }
        CallVariables calls = new CallVariables(this.shared, method, this.parameterNames);
        return ExpressionVariables.read(parsed)
            .stream()
            .filter((name) -> calls.index(name) < 0 && (!calls.builtIns() || !(name.equals(CallVariables.ARGS)
                    || name.equals(CallVariables.METHOD) || name.equals(CallVariables.CLIENT_IP))))
            .toList();
    }

    /**
     * Returns what an expression reads from a parameter that the parameter's declared class does
     * not have (a property, or a method taking that many arguments), as far as the types are known
     * at start ({@link ExpressionMembers}).
     * @param expression the SpEL text of a key, cost, zone or policy choice
     * @param method the method whose calls it is evaluated for
     * @return the problem, or {@code null} if there is none
     * @throws ParseException if the text is not valid SpEL
     */
    public @Nullable String unreadableMember(String expression, Method method) {
        Expression parsed = checked(expression);
        if (parsed == null) {
            return null;
        }
        CallVariables calls = new CallVariables(this.shared, method, this.parameterNames);
        return ExpressionMembers.problem(parsed, method, calls::index);
    }

    /** The parsed expression to check, or {@code null} for blank text or a whole number, which read nothing. */
    private @Nullable Expression checked(String expression) {
        String text = expression.trim();
        return (text.isEmpty() || text.matches("-?\\d{1,18}")) ? null : this.parser.parseExpression(text);
    }

    /**
     * Describes the variables expressions of a method may read, for messages: its parameters by
     * name (or a note that their names are not known), then the positional and other variables.
     * @param method the method
     * @return the description
     */
    public String describeVariables(Method method) {
        if (RequestRules.isSignature(method)) {
            return RequestRules.VARIABLES_DESCRIPTION;
        }
        int count = SuspendFunctions.parameterCount(method);
        String[] names = this.parameterNames.getParameterNames(method);
        if (names != null && names.length > count) {
            names = Arrays.copyOf(names, count); // a suspend function's continuation, if named
        }
        String positional = (count == 0) ? "" : (count == 1) ? "#a0 or #p0, " : "#a0..#a" + (count - 1)
                + " or #p0..#p" + (count - 1) + ", ";
        String parameters = (count == 0) ? "the method has no parameters"
                : (names == null) ? "the parameter names are not known (compile with -parameters to use them)"
                        : "its parameters are " + Arrays.stream(names).map((name) -> "#" + name)
                            .collect(Collectors.joining(", "));
        return parameters + "; also " + positional + "#" + CallVariables.ARGS + ", #" + CallVariables.METHOD + " and, in web requests, #"
                + CallVariables.CLIENT_IP;
    }

    /**
     * Parses a zone chosen per call.
     * @param zone the SpEL text
     * @param method the method whose calls it is evaluated for
     * @return the parsed expression
     * @throws ParseException if the text is not valid SpEL
     */
    public ZoneExpression parseZone(String zone, Method method) {
        String text = zone.trim();
        Expression parsed = this.parser.parseExpression(text);
        CallVariables calls = new CallVariables(this.shared, method, this.parameterNames);
        return new ZoneExpression(text, parsed, calls, calls.readsClientIp(parsed));
    }

    /**
     * Parses a condition.
     * @param condition the SpEL text, not blank
     * @param method the method whose calls it is evaluated for
     * @return the parsed expression
     * @throws ParseException if the text is not valid SpEL
     */
    ConditionExpression parseCondition(String condition, Method method) {
        String text = condition.trim();
        Expression parsed = this.parser.parseExpression(text);
        CallVariables calls = new CallVariables(this.shared, method, this.parameterNames);
        return new ConditionExpression(text, parsed, calls, calls.readsClientIp(parsed));
    }

    /**
     * Parses a cost: a whole number, or a SpEL expression.
     * @param cost the text; blank for one permit per call
     * @param method the method whose calls it costs, for the names of its parameters
     * @return the parsed cost
     * @throws ParseException if the text is neither a whole number nor valid SpEL
     */
    public CostExpression parseCost(String cost, Method method) {
        String text = cost.trim();
        if (text.isEmpty()) {
            return CostExpression.ONE;
        }
        if (text.matches("-?\\d{1,18}")) {
            return new CostExpression.Literal(Long.parseLong(text));
        }
        return new CostExpression.Spel(text, this.parser.parseExpression(text),
                new CallVariables(this.shared, method, this.parameterNames));
    }

    /**
     * Parses an {@code actualCost} expression.
     * @param actualCost the expression, not blank
     * @param method the method it belongs to
     * @return the parsed expression
     * @throws org.springframework.expression.ParseException if it is not valid SpEL
     */
    ActualCost parseActualCost(String actualCost, Method method) {
        String text = actualCost.trim();
        return new ActualCost(text, this.parser.parseExpression(text), new CallVariables(this.shared, method,
                this.parameterNames));
    }

}
