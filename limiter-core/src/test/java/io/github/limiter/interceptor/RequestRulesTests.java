package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.limiter.Algorithm;
import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.LimitDescription;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExpressionException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import org.junit.jupiter.api.Test;

import org.springframework.core.annotation.MergedAnnotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Request rules resolved as annotations are, against the request's variables rather than a
 * method's parameters; their keys resolved per request. No Redis: nothing here decides.
 */
class RequestRulesTests {

    private final RateLimitAdvisor advisor = new RateLimitAdvisor(() -> {
        throw new AssertionError("nothing here decides");
    }, null, () -> new RateLimitAdvisor.Settings(Map.of("login-attempts", new LimitPolicy(null, Duration.ofMinutes(1),
            5L, null, null, null, null, null, null)), BlankKey.REJECT, OnFailure.ALLOW));

    private final RequestRules rules = this.advisor.requestRules();

    @Test
    void aRuleReadsTheRequestsVariablesAndItsMethodIsTheHttpMethod() {
        RequestRules.Rule rule = this.rules.rule("limiter.web.rules.login",
                attributes(Map.of("name", "login", "key", "#method + ' ' + #path + ' ' + #params['username'] + ' '"
                        + "+ #headers['X-Tenant'] + ' ' + #clientIp", "policy", "login-attempts")),
                "POST /login", null);
        List<LimitRequest> requests = this.rules.requests(List.of(rule), request(Map.of("username", "ann")));
        assertThat(requests).singleElement().satisfies((request) -> {
            assertThat(request.limitId()).isEqualTo("login");
            assertThat(request.key()).isEqualTo("POST /login ann acme 203.0.113.9");
            assertThat(request.limit().max()).isEqualTo(5);
        });
        assertThat(rule.reads("params")).isTrue();
        assertThat(rule.reads("principal")).isFalse();
    }

    @Test
    void aRuleIsListedWithTheAdvisorsLimits() {
        this.rules.rule("limiter.web.rules.api", attributes(Map.of("name", "api", "key", "#clientIp", "window", "1m",
                "max", 100L, "algorithm", new Algorithm[] { Algorithm.SLIDING_WINDOW })), "/api/**", null);
        assertThat(this.advisor.limits()).extracting(LimitDescription::limitId, LimitDescription::method)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("api", "/api/**"));
    }

    @Test
    void aVariableNoRuleHasFailsTheStartNamingTheProperty() {
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> this.rules.rule("limiter.web.rules.login",
                    attributes(Map.of("name", "login", "key", "#parms['username']", "window", "1m", "max", 5L)),
                    "/login", null))
            .withMessage("Invalid rate-limit rule: limiter.web.rules.login.key = '#parms['username']' reads "
                    + "#parms, which is not a variable of a request rule: " + RequestRules.VARIABLES_DESCRIPTION);
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> this.rules.rule("limiter.web.rules.login",
                    attributes(Map.of("name", "login", "key", "#args[0]", "window", "1m", "max", 5L)), "/login", null))
            .withMessageContaining("reads #args, which is not a variable of a request rule");
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> this.rules.rule("limiter.web.rules.login",
                    attributes(Map.of("name", "login", "key", "#path.size()", "window", "1m", "max", 5L)), "/login",
                    null))
            .withMessageStartingWith("Invalid rate-limit rule: limiter.web.rules.login.key = '#path.size()' ");
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> this.rules.rule("limiter.web.rules.api",
                    attributes(Map.of("name", "api", "window", "1m", "max", 5L, "alertAt", 9L)), "/api/**", null))
            .withMessageStartingWith("Invalid rate-limit rule: limiter.web.rules.api.alert-at = '9' ");
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> this.rules.rule("limiter.web.rules.api",
                    attributes(Map.of("name", "api", "policy", "nope")), "/api/**", null))
            .withMessageStartingWith("Invalid rate-limit rule: limiter.web.rules.api.policy = 'nope' is not defined");
        assertThat(this.advisor.limits()).as("no invalid rule is listed").isEmpty();
    }

    @Test
    void aBlankKeyIsRefusedOrSkippedAsTheRuleSays() {
        RequestRules.Rule refusing = this.rules.rule("limiter.web.rules.login",
                attributes(Map.of("name", "login", "key", "#params['username']", "policy", "login-attempts")),
                "/login", null);
        RequestRules.Rule skipping = this.rules.rule("limiter.web.rules.login-skip",
                attributes(Map.of("name", "login-skip", "key", "#params['username']", "policy", "login-attempts")),
                "/login", BlankKey.SKIP);
        assertThatExceptionOfType(BlankRateLimitKeyException.class)
            .isThrownBy(() -> this.rules.requests(List.of(refusing), request(Map.of())))
            .satisfies((ex) -> assertThat(ex.getLimitId()).isEqualTo("login"));
        assertThat(this.rules.requests(List.of(skipping), request(Map.of()))).isEmpty();
    }

    @Test
    void aFailingExpressionNamesTheRuleAndTheAttribute() {
        RequestRules.Rule rule = this.rules.rule("limiter.web.rules.api",
                attributes(Map.of("name", "api", "key", "#headers['X-Tenant'].substring(10)", "window", "1m",
                        "max", 5L)), "/api/**", null);
        assertThatExceptionOfType(RateLimitExpressionException.class)
            .isThrownBy(() -> this.rules.requests(List.of(rule), request(Map.of())))
            .satisfies((ex) -> {
                assertThat(ex.getLimitId()).isEqualTo("api");
                assertThat(ex.getAttribute()).isEqualTo("key");
            });
    }

    private static RateLimit attributes(Map<String, Object> attributes) {
        return MergedAnnotation.of(RateLimit.class, new HashMap<>(attributes)).synthesize();
    }

    private static RequestRules.Request request(Map<String, String> params) {
        return new RequestRules.Request("203.0.113.9", "/login", "POST", Map.of("X-Tenant", "acme"), params,
                new Object(), null);
    }

}
