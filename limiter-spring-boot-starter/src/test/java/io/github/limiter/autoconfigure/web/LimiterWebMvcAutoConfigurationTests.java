package io.github.limiter.autoconfigure.web;

import java.net.URI;
import java.time.Duration;

import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimiter;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.DispatcherServlet;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class LimiterWebMvcAutoConfigurationTests {

    private static final String SPOOFABLE = "key on #clientIp with server.forward-headers-strategy=native";

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LimiterWebMvcAutoConfiguration.class));

    @Test
    void answersRateLimitExceptionsInServletApplications() {
        this.runner.run(context -> assertThat(context).hasSingleBean(RateLimitExceptionHandler.class));
    }

    @Test
    void warnsAtStartWhereClientIpTrustsTomcatsDefaultInternalProxies(CapturedOutput output) {
        WebApplicationContextRunner limited = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterWebMvcAutoConfiguration.class))
            .withUserConfiguration(ClientIpLimited.class);
        limited.withPropertyValues("server.forward-headers-strategy=native").run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Rate limits [searches] " + SPOOFABLE)
                .contains("server.tomcat.remoteip.internal-proxies");
        });
        int warnings = count(output);
        // proxies of its own, forwarded headers off, or no limit on #clientIp: nothing to say
        limited.withPropertyValues("server.forward-headers-strategy=native",
                "server.tomcat.remoteip.internal-proxies=10\\.0\\.1\\.\\d{1,3}").run((context) -> { });
        limited.withPropertyValues("server.forward-headers-strategy=none").run((context) -> { });
        limited.run((context) -> { });
        assertThat(count(output)).isEqualTo(warnings).isOne();
    }

    @Test
    void warnsAtStartWhereTheServersForwardedHeadersContradictTheLimitersTrustedProxies(CapturedOutput output) {
        WebApplicationContextRunner limited = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterWebMvcAutoConfiguration.class))
            .withUserConfiguration(ClientIpLimited.class)
            .withPropertyValues("limiter.web.trusted-proxies=10.0.0.0/8");
        limited.withPropertyValues("server.forward-headers-strategy=framework").run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Rate limits [searches] key on #clientIp, which limiter.web.trusted-proxies "
                    + "finds from the connection's peer, but server.forward-headers-strategy=framework");
        });
        limited.run((context) -> assertThat(context).hasNotFailed());
        assertThat(output.getOut().lines().filter((line) -> line.contains("finds from the connection's peer")))
            .hasSize(1);
        assertThat(output).doesNotContain(SPOOFABLE);
    }

    @Test
    void failsToStartWithATrustedProxyThatIsNoAddress() {
        this.runner.withPropertyValues("limiter.web.trusted-proxies=10.0.0.0/8,proxy.example.com")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("limiter.web.trusted-proxies entry 'proxy.example.com' is not an IP address"));
    }

    private static int count(CapturedOutput output) {
        return (int) output.getOut().lines().filter((line) -> line.contains(SPOOFABLE)).count();
    }

    @Test
    void backsOffWithoutSpringMvc() {
        this.runner.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class));
    }

    @Test
    void backsOffOutsideWebApplications() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LimiterWebMvcAutoConfiguration.class))
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class));
    }

    @Test
    void backsOffWhenSwitchedOff() {
        this.runner.withPropertyValues("limiter.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(RateLimitExceptionHandler.class));
    }

    @Test
    void usesTheApplicationsHandlerBean() {
        this.runner.withUserConfiguration(OwnHandler.class).run(context -> {
            assertThat(context).hasSingleBean(RateLimitExceptionHandler.class);
            assertThat(context).hasBean("myHandler");
        });
    }

    @Test
    void typesProblemsUnderTheConfiguredBase() {
        this.runner.withPropertyValues("limiter.web.problem-type-base=https://example.com/docs/problems/")
            .run(context -> {
                RateLimitExceptionHandler handler = context.getBean(RateLimitExceptionHandler.class);
                ProblemDetail problem = handler.handle(new RateLimitExceededException(new Decision("answers", "alice",
                        Decision.Outcome.REJECTED, 20, 20, 0, Duration.ofSeconds(30), Duration.ofSeconds(30), false,
                        false, false, false)))
                    .getBody();
                assertThat(problem.getType())
                    .isEqualTo(URI.create("https://example.com/docs/problems/rate-limit-exceeded"));
            });
    }

    @Test
    void failsToStartWithAProblemTypeBaseNotEndingWithASlash() {
        assertStartupFailsWithProblemTypeBase("https://example.com/problems");
    }

    @Test
    void failsToStartWithARelativeProblemTypeBase() {
        assertStartupFailsWithProblemTypeBase("problems/");
    }

    @Test
    void roundsRetryAfterUpToWholeSecondsAndAtLeastOne() {
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(Duration.ofMillis(1000))).isEqualTo(1);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(Duration.ofMillis(1001))).isEqualTo(2);
        assertThat(RateLimitExceptionHandler.retryAfterSeconds(Duration.ofSeconds(59))).isEqualTo(59);
    }

    private void assertStartupFailsWithProblemTypeBase(String base) {
        this.runner.withPropertyValues("limiter.web.problem-type-base=" + base).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                .hasMessage("limiter.web.problem-type-base '" + base
                        + "' must be an absolute URI ending with '/', such as 'https://example.com/problems/'");
        });
    }

    @Test
    void registersTheRuleFiltersAroundSpringSecuritysChainOnlyWhereThereAreRules() {
        WebApplicationContextRunner limited = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterWebMvcAutoConfiguration.class))
            .withUserConfiguration(ClientIpLimited.class);
        limited.run((context) -> {
            assertThat(ruleFilter(context, "limiterRequestRuleFilter").isEnabled()).isFalse();
            assertThat(ruleFilter(context, "limiterAuthenticatedRequestRuleFilter").isEnabled()).isFalse();
        });
        limited.withPropertyValues("limiter.web.rules.api.paths=/api/**", "limiter.web.rules.api.key=#clientIp",
                "limiter.web.rules.api.window=1m", "limiter.web.rules.api.max=5",
                "limiter.web.rules.me.paths=/me", "limiter.web.rules.me.key=#principal",
                "limiter.web.rules.me.window=1m", "limiter.web.rules.me.max=5").run((context) -> {
                    FilterRegistrationBean<?> before = ruleFilter(context, "limiterRequestRuleFilter");
                    FilterRegistrationBean<?> after = ruleFilter(context, "limiterAuthenticatedRequestRuleFilter");
                    assertThat(before.isEnabled()).isTrue();
                    assertThat(before.getOrder()).isEqualTo(-110);
                    assertThat(after.isEnabled()).isTrue();
                    assertThat(after.getOrder()).isEqualTo(-90);
                });
        limited.withPropertyValues("spring.security.filter.order=5", "limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.window=1m", "limiter.web.rules.api.max=5")
            .run((context) -> assertThat(ruleFilter(context, "limiterRequestRuleFilter").getOrder()).isEqualTo(-5));
    }

    @Test
    void refusesAnInvalidRuleAtStartNamingItsPropertyAndValue() {
        WebApplicationContextRunner limited = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterWebMvcAutoConfiguration.class))
            .withUserConfiguration(ClientIpLimited.class)
            .withPropertyValues("limiter.policies.login-attempts.window=1m", "limiter.policies.login-attempts.max=5");
        String[] inline = { "limiter.web.rules.api.window=1m", "limiter.web.rules.api.max=5" };
        assertInvalid(limited.withPropertyValues(inline), "Invalid rate-limit rule: limiter.web.rules.api.paths = '' "
                + "is required");
        assertInvalid(limited.withPropertyValues("limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.limits[0].window=1s", "limiter.web.rules.api.limits[0].max=5"),
                "Invalid rate-limit rule: limiter.web.rules.api.limits = '[1 limits]' is a policy's: list the limits "
                        + "in limiter.policies.<name>.limits and set this rule's policy to <name>");
        assertInvalid(limited.withPropertyValues(inline).withPropertyValues("limiter.web.rules.api.paths=/api/**/x"),
                "Invalid rate-limit rule: limiter.web.rules.api.paths = '/api/**/x' is not a path pattern");
        assertInvalid(limited.withPropertyValues(inline).withPropertyValues("limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.methods=POTS"), "Invalid rate-limit rule: limiter.web.rules.api.methods = "
                        + "'POTS' is not an HTTP method");
        assertInvalid(limited.withPropertyValues("limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.policy=nope"), "Invalid rate-limit rule: limiter.web.rules.api.policy = 'nope' "
                        + "is not defined; defined policies: [login-attempts]");
        assertInvalid(limited.withPropertyValues(inline).withPropertyValues("limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.policy=login-attempts"), "Invalid rate-limit rule: limiter.web.rules.api.policy "
                        + "= 'login-attempts' excludes window: a rule's limit is either a policy or written inline");
        assertInvalid(limited.withPropertyValues(inline).withPropertyValues("limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.key=#parms['user']"), "Invalid rate-limit rule: limiter.web.rules.api.key = "
                        + "'#parms['user']' reads #parms, which is not a variable of a request rule: a rule's "
                        + "expressions read #clientIp, #path, #method");
        assertInvalid(limited.withPropertyValues("limiter.web.rules.api.paths=/api/**",
                "limiter.web.rules.api.window=1m"), "Invalid rate-limit rule: limiter.web.rules.api.max = '-1' is not "
                        + "set");
    }

    private static void assertInvalid(WebApplicationContextRunner runner, String message) {
        runner.run((context) -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (failure != null && !(failure instanceof InvalidRateLimitException)) {
                failure = failure.getCause();
            }
            assertThat(failure).as("the failure's cause").isNotNull().message().startsWith(message);
        });
    }

    private static FilterRegistrationBean<?> ruleFilter(ApplicationContext context, String name) {
        return context.getBean(name, FilterRegistrationBean.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnHandler {

        @Bean
        RateLimitExceptionHandler myHandler() {
            return new RateLimitExceptionHandler(org.springframework.http.HttpStatus.FORBIDDEN,
                    io.github.limiter.autoconfigure.LimiterWebProperties.Headers.BOTH,
                    RateLimitProblemTypes.DEFAULT_BASE);
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class ClientIpLimited {

        @Bean
        RateLimiter allowingRateLimiter() {
            return (List<LimitRequest> requests) -> Decision.allow(requests.get(0).limitId(), requests.get(0).key(),
                    requests.get(0).limit().max(), 1, requests.get(0).limit().window());
        }

        @Bean
        Searches searches() {
            return new Searches();
        }

    }

    public static class Searches {

        @RateLimit(name = "searches", key = "#clientIp", window = "1m", max = 30)
        public String search(String query) {
            return query;
        }

    }

}
