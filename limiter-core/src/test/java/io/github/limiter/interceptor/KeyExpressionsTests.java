package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ObjectUtils;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys and costs resolve as Spring's method-based SpEL context would resolve them, whether read
 * straight from an argument or evaluated over the limiter's own per-call context.
 */
class KeyExpressionsTests {

    private static final Method CALL = ReflectionUtils.findMethod(Api.class, "call", String.class, Form.class,
            int.class, List.class);

    private static final Method SHADOWED = ReflectionUtils.findMethod(Api.class, "shadowed", String.class,
            String.class);

    private final KeyExpressions expressions = new KeyExpressions(null);

    @ParameterizedTest
    @ValueSource(strings = { "#user", "#p0", "#a0", "#p2", "#a2", " #user ", "#form.user", "#form.user.length()",
            "#args[1].user", "#args.length", "#method.name", "#user + ':' + #count", "#count * 2", "#missing",
            "#p9", "#root[0]", "#root.length", "'fixed'", "#files.size()", "#files[0]", "#p3 ?: 'none'",
            "#user?.toUpperCase()", "T(java.lang.String).valueOf(#count)", "#count > 2 ? 'many' : 'few'" })
    void resolvesEveryKeyAsSpringsMethodContextDoes(String text) {
        for (Object[] args : List.of(new Object[] { "alice", new Form("bob"), 3, List.of("a.txt", "b.txt") },
                new Object[] { null, new Form(" "), 7, List.of("c.txt") })) {
            assertThat(this.expressions.parse(text, CALL).resolve(CALL, args))
                .as("%s with %s", text, Arrays.toString(args))
                .isEqualTo(springKey(text, CALL, args));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "#user", "#p0", "#a0", "#form", "#p1", "#count", "#files", " #files " })
    void readsAKeyThatIsOneArgumentWithoutSpel(String text) {
        assertThat(this.expressions.parse(text, CALL)).isInstanceOf(KeyExpression.Argument.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "#args", "#method", "#root", "#this", "#missing", "#p9", "#user.length()", "#user + ''" })
    void evaluatesEverythingElseAsSpel(String text) {
        assertThat(this.expressions.parse(text, CALL)).isInstanceOf(KeyExpression.Spel.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "#user", "#p0", "#a3", "#args[1].user", "#method.name", "#root[0]", "#root.length",
            "#files.?[#this.endsWith('.txt')].size()", "#files.![#this.length()]", "#x = #user", "(#x = #user) + #x",
            "'fixed'", "@users.find(#user)", "T(java.lang.String).valueOf(#count)", "", "  ", "3" })
    void findsNoUnknownVariableWhereEveryNameIsAParameterOrProvided(String text) {
        assertThat(this.expressions.unknownVariables(text, CALL)).as(text).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = { "#missing", "#User", "#p9", "#a4", "#form.user + #missing", "#missing?.length()",
            "#files.![#missing]", "#fn(#user)" })
    void findsVariablesThatNameNoParameter(String text) {
        assertThat(this.expressions.unknownVariables(text, CALL)).as(text).hasSize(1);
    }

    @Test
    void namesTheParametersAndTheProvidedVariables() {
        assertThat(this.expressions.unknownVariables("#usr + #count + #cnt", CALL)).containsExactly("usr", "cnt");
        assertThat(this.expressions.unknownVariables("#clientIp + #count", CALL)).isEmpty();
        assertThat(this.expressions.describeVariables(CALL)).isEqualTo(
                "its parameters are #user, #form, #count, #files; also #a0..#a3 or #p0..#p3, #args, #method and, "
                        + "in web requests, #clientIp");
        Method none = ReflectionUtils.findMethod(Api.class, "none");
        assertThat(this.expressions.describeVariables(none))
            .isEqualTo("the method has no parameters; also #args, #method and, in web requests, #clientIp");
    }

    @Test
    void argsAndMethodNameTheCallEvenWhenAParameterHasTheSameName() {
        Object[] args = { "first", "second" };
        assertThat(this.expressions.parse("#args[1]", SHADOWED).resolve(SHADOWED, args)).isEqualTo("second");
        assertThat(this.expressions.parse("#method.name", SHADOWED).resolve(SHADOWED, args)).isEqualTo("shadowed");
        assertThat(this.expressions.parse("#p0", SHADOWED).resolve(SHADOWED, args)).isEqualTo("first");
    }

    @Test
    void variablesAnExpressionAssignsStayInItsCall() {
        KeyExpression expression = this.expressions.parse("(#seen = #user) + '/' + #seen", CALL);
        Object[] alice = { "alice", null, 1, List.of() };
        Object[] bob = { "bob", null, 1, List.of() };
        assertThat(expression.resolve(CALL, alice)).isEqualTo("alice/alice");
        assertThat(expression.resolve(CALL, bob)).isEqualTo("bob/bob");
        assertThat(this.expressions.parse("#seen", CALL).resolve(CALL, bob)).isNull();
    }

    @Test
    void costsResolveFromTheSameContext() {
        Object[] args = { "alice", new Form("bob"), 3, List.of("a.txt", "b.txt") };
        assertThat(this.expressions.parseCost("#files.size()", CALL).resolve(CALL, args)).isEqualTo(2);
        assertThat(this.expressions.parseCost("#count * 2", CALL).resolve(CALL, args)).isEqualTo(6);
        assertThat(this.expressions.parseCost(" 4 ", CALL).resolve(CALL, args)).isEqualTo(4);
        assertThat(this.expressions.parseCost("", CALL)).isSameAs(CostExpression.ONE);
    }

    /** The key Spring's own context gives, blank or {@code null} meaning none, as the limiter reads it. */
    private static @Nullable String springKey(String text, Method method, Object[] args) {
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(args, method, args,
                new DefaultParameterNameDiscoverer());
        context.setVariable("args", args);
        context.setVariable("method", method);
        Object value = new SpelExpressionParser().parseExpression(text).getValue(context);
        String key = (value != null) ? ObjectUtils.nullSafeToString(value) : null;
        return (key == null || key.isBlank()) ? null : key;
    }

    public record Form(String user) {
    }

    static class Api {

        public void call(String user, Form form, int count, List<String> files) {
        }

        public void none() {
        }

        public void shadowed(String args, String method) {
        }

    }

}
