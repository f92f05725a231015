package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.annotation.RateLimit;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reactive subscriber has no thread of its own: Spring WebFlux keeps the request's observation in
 * the subscription's Reactor context (under {@code "micrometer.observation"}), and the decision of
 * a method returning a {@code Mono} is its child, as a servlet request's decision is the child of
 * the observation current on its thread.
 */
@WithRedis
class ReactiveDecisionObservationIntegrationTests {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @AutoClose
    private final Closer closing = new Closer();

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    private AnnotationConfigApplicationContext context;

    @AfterEach
    void close() {
        if (this.context != null) {
            this.context.close();
        }
    }

    @Test
    void aSubscriptionsDecisionIsTheChildOfTheObservationInItsReactorContext() {
        Answers answers = start();
        Observation request = Observation.start("http.server.requests", this.registry);

        StepVerifier.create(answers.answer("alice").contextWrite(Context.of("micrometer.observation", request)))
            .expectNext("answer for alice")
            .expectComplete()
            .verify(WAIT);
        request.stop();

        assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 1)
            .hasObservationWithNameEqualTo("limiter.decision")
            .that()
            .hasLowCardinalityKeyValue("outcome", "allowed")
            .hasParentObservationEqualTo(request);
        assertThat(this.registry.getCurrentObservation()).as("nothing left current").isNull();
    }

    @Test
    void aSubscriptionWithoutAnObservationDecidesWithoutAParent() {
        Answers answers = start();

        StepVerifier.create(answers.answer("bob")).expectNext("answer for bob").expectComplete().verify(WAIT);

        assertThat(this.registry).hasSingleObservationThat()
            .hasNameEqualTo("limiter.decision")
            .doesNotHaveParentObservation();
    }

    private Answers start() {
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(RedisServerExtension.template())
            .keyPrefix("reactive-observed-" + UUID.randomUUID() + ":")
            .observations(this.registry, null)
            .build());
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getBeanFactory().registerSingleton("rateLimiter", limiter);
        context.register(AdvisorConfig.class, Answers.class);
        this.context = context;
        context.refresh();
        return context.getBean(Answers.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class AdvisorConfig {

        @Bean
        static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
            return new DefaultAdvisorAutoProxyCreator();
        }

        @Bean
        static RateLimitAdvisor rateLimitAdvisor(BeanFactory beanFactory) {
            return new RateLimitAdvisor(() -> beanFactory.getBean(RateLimiter.class), beanFactory);
        }

    }

    static class Answers {

        @RateLimit(key = "#user", window = "60s", max = 2)
        public Mono<String> answer(String user) {
            return Mono.just("answer for " + user);
        }

    }

}
