package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.Decision;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ReflectionUtils;

/**
 * Limits on web requests rather than on methods: each rule's attributes resolved once into the
 * same limit an {@link RateLimit @RateLimit} becomes (policies, tiers, algorithms, calendars,
 * overrides), listed with the {@linkplain RateLimitAdvisor#limits() advisor's limits}, and decided
 * by the same limiter. Which requests a rule applies to is the web support's business: the Spring
 * Boot starter matches paths and methods, and hands the matching rules' requests here.
 *
 * <p>A rule's expressions read the request's variables ({@link #VARIABLES}), not a method's
 * parameters: {@code #clientIp}, {@code #path}, {@code #method} (the HTTP method),
 * {@code #headers['Name']}, {@code #params['name']}, {@code #request} and {@code #principal}.
 *
 * @since 0.1.0
 */
public final class RequestRules {

    /** The variables a rule's expressions read, in the order of {@link Request}'s components. */
    public static final List<String> VARIABLES = List.of("clientIp", "path", "method", "headers", "params",
            "request", "principal");

    /** The variables, described for messages. */
    static final String VARIABLES_DESCRIPTION = "a rule's expressions read #clientIp, #path, #method (the HTTP "
            + "method), #headers['Name'], #params['name'], #request and #principal";

    /** The signature whose parameters are the variables: a rule's expressions are parsed against it. */
    static final Method SIGNATURE = Objects.requireNonNull(ReflectionUtils.findMethod(Signature.class, "request",
            String.class, String.class, String.class, Map.class, Map.class, Object.class, String.class));

    private final SpelExpressionParser parser = new SpelExpressionParser();

    private final KeyExpressions keyExpressions;

    private final Supplier<RateLimitAdvisor.Settings> settings;

    private final RateLimitInterceptor interceptor;

    private final Consumer<LimitSpec> registered;

    RequestRules(KeyExpressions keyExpressions, Supplier<RateLimitAdvisor.Settings> settings,
            RateLimitInterceptor interceptor, Consumer<LimitSpec> registered) {
        this.keyExpressions = keyExpressions;
        this.settings = settings;
        this.interceptor = interceptor;
        this.registered = registered;
    }

    static boolean isSignature(Method method) {
        return method.getDeclaringClass() == Signature.class;
    }

    /**
     * Resolves and checks a rule, and lists its limit with the advisor's.
     * @param properties where the rule is configured, such as {@code limiter.web.rules.login}: the
     * last part is the rule's name, which is its limit id unless the attributes name one
     * @param attributes the rule's limit, as an annotation would have it ({@code name}, {@code key},
     * {@code window}, {@code max}, {@code policy}, ...); {@code actualCost} and {@code fallback} do not apply
     * @param description what the limit is described as, such as the paths it applies to
     * @param blankKey what a request whose key is blank gets, or {@code null} for
     * {@code limiter.blank-key}
     * @return the rule
     * @throws InvalidRateLimitException naming the property, its value and the problem, if the rule
     * is invalid
     */
    public Rule rule(String properties, RateLimit attributes, String description, @Nullable BlankKey blankKey) {
        RateLimitAdvisor.Settings settings = this.settings.get();
        List<LimitSpec> specs = new AnnotationResolution(attributes, properties, description, this.keyExpressions,
                settings.policies(), settings.defaultPolicy()).specs();
        Rule rule = new Rule(specs, blankKey, read(properties, attributes));
        specs.forEach(this.registered);
        return rule;
    }

    /** The variables the rule's expressions read, which say what a request must resolve for it. */
    private Set<String> read(String properties, RateLimit attributes) {
        Set<String> read = new HashSet<>();
        for (String text : new String[] { attributes.key(), attributes.cost(), attributes.zone(), attributes.condition(),
                PolicyChoice.isChoice(attributes.policy()) ? PolicyChoice.expression(attributes.policy()) : "" }) {
            if (!text.isBlank() && !text.trim().matches("-?\\d{1,18}")) {
                try {
                    read.addAll(ExpressionVariables.read(this.parser.parseExpression(text)));
                }
                catch (ParseException ex) {
                    // the resolution refused it already, naming the property
                    throw new IllegalStateException(properties + " has an invalid expression", ex);
                }
            }
        }
        return Set.copyOf(read);
    }

    /**
     * What the rules ask of the limiter for one request, in the rules' order: one request per limit,
     * none for a limit whose blank key skips it.
     * @param rules the rules that apply to the request
     * @param request the request's variables
     * @return the limits' requests, to decide together
     * @throws BlankRateLimitKeyException if a rule's key is blank and a blank key is refused: the
     * client's mistake
     * @throws RateLimitExpressionException if an expression of a rule fails: the application's
     */
    public List<LimitRequest> requests(List<Rule> rules, Request request) {
        @Nullable Object[] args = { request.clientIp(), request.path(), request.method(), request.headers(),
            request.params(), request.request(), request.principal() };
        List<LimitRequest> requests = new ArrayList<>(rules.size());
        for (Rule rule : rules) {
            for (LimitSpec spec : rule.specs) {
                LimitRequest limitRequest = this.interceptor.request(spec, SIGNATURE, args, rule.blankKey);
                if (limitRequest != null) {
                    requests.add(limitRequest);
                }
            }
        }
        return requests;
    }

    /**
     * Decides the rules' requests together, all or nothing, blocking the calling thread; while
     * Redis cannot decide, the rules' on-failure settings decide.
     * @param rules the rules the requests are of
     * @param requests their requests, from {@link #requests}, not empty
     * @param listener told the decision (the response's headers), or {@code null}
     * @return the decision
     */
    public Decision decide(List<Rule> rules, List<LimitRequest> requests, @Nullable RateLimitListener listener) {
        return this.interceptor.decide(specs(rules), requests, listener);
    }

    /**
     * Decides as {@link #decide} does, without blocking.
     * @param rules the rules the requests are of
     * @param requests their requests, from {@link #requests}, not empty
     * @param listener told the decision (the response's headers), or {@code null}
     * @return the decision, once Redis answered
     */
    public CompletionStage<Decision> decideAsync(List<Rule> rules, List<LimitRequest> requests,
            @Nullable RateLimitListener listener) {
        return this.interceptor.decideAsync(specs(rules), requests, listener);
    }

    private static List<LimitSpec> specs(List<Rule> rules) {
        return (rules.size() == 1) ? rules.get(0).specs : rules.stream().flatMap((rule) -> rule.specs.stream()).toList();
    }

    /**
     * A web request as a rule's expressions see it.
     *
     * @param clientIp the client's address ({@code #clientIp}), or {@code null} if unknown
     * @param path the path within the application ({@code #path})
     * @param method the HTTP method ({@code #method})
     * @param headers the first value of each header by name, case-insensitively ({@code #headers})
     * @param params the first value of each query or form parameter by name ({@code #params})
     * @param request the web stack's own request ({@code #request})
     * @param principal the authenticated name ({@code #principal}), or {@code null}
     * @since 0.1.0
     */
    public record Request(@Nullable String clientIp, String path, String method, Map<String, String> headers,
            Map<String, String> params, Object request, @Nullable String principal) {
    }

    /**
     * One rule, resolved and checked.
     *
     * @since 0.1.0
     */
    public static final class Rule {

        private final List<LimitSpec> specs;

        private final @Nullable BlankKey blankKey;

        private final Set<String> read;

        private Rule(List<LimitSpec> specs, @Nullable BlankKey blankKey, Set<String> read) {
            this.specs = specs;
            this.blankKey = blankKey;
            this.read = read;
        }

        /**
         * Returns the ids of the rule's limits: one, or one per limit of a policy with several.
         * @return the limit ids
         */
        public List<String> limitIds() {
            return this.specs.stream().map(LimitSpec::limitId).toList();
        }

        /**
         * Says whether the rule's expressions read a variable, such as {@code principal} (which
         * needs the request authenticated first) or {@code params} (which may need its form read).
         * @param variable one of {@link #VARIABLES}
         * @return {@code true} if an expression of the rule reads it
         */
        public boolean reads(String variable) {
            return this.read.contains(variable);
        }

        @Override
        public String toString() {
            return "rule " + limitIds() + " (" + this.specs.get(0).method() + ")";
        }

    }

    /** The variables as parameters, so that a rule's expressions are parsed and checked as an annotation's are. */
    private interface Signature {

        void request(String clientIp, String path, String method, Map<String, String> headers,
                Map<String, String> params, Object request, String principal);

    }

}
