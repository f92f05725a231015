package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.FixedWindows;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.annotation.RateLimit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Methods returning Mono, Flux and CompletableFuture on real Redis: decided once per subscription
 * (or per call, without blocking, for a future), the body run only when allowed, refusals as error
 * signals, fallbacks and on-failure as for blocking methods.
 */
@WithRedis
class ReactiveMethodsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Duration WAIT = Duration.ofSeconds(10);

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "reactive-" + UUID.randomUUID() + ":";

    private AnnotationConfigApplicationContext context;

    private LettuceConnectionFactory unreachable;

    @AfterEach
    void close() {
        if (this.context != null) {
            this.context.close();
        }
        if (this.unreachable != null) {
            this.unreachable.destroy();
        }
    }

    @Test
    void callsWhoseResultsAreNeverSubscribedAreNotCounted() {
        Answers answers = start(redis);
        for (int call = 0; call < 3; call++) {
            answers.answer("alice");
        }
        assertThat(redis.hasKey(this.prefix + "{Answers.answer:alice}")).isFalse();
        assertThat(answers.bodies()).isZero();
        StepVerifier.create(answers.answer("alice")).expectNext("answer for alice").expectComplete().verify(WAIT);
        assertThat(count("Answers.answer", "alice")).isEqualTo(1);
    }

    @Test
    void everySubscriptionIsOneDecisionAndOnlyAnAllowedOneRunsTheBody() {
        Answers answers = start(redis);
        Mono<String> answer = answers.answer("bob");
        for (int subscription = 0; subscription < 2; subscription++) {
            StepVerifier.create(answer).expectNext("answer for bob").expectComplete().verify(WAIT);
        }
        for (int subscription = 0; subscription < 3; subscription++) {
            StepVerifier.create(answer).expectErrorSatisfies(error -> assertThat(error)
                .isInstanceOfSatisfying(RateLimitExceededException.class, refused -> {
                    assertThat(refused.getLimitId()).isEqualTo("Answers.answer");
                    assertThat(refused.getRetryAfter()).isPositive();
                })).verify(WAIT);
        }
        assertThat(answers.bodies()).isEqualTo(2);
        assertThat(count("Answers.answer", "bob")).isEqualTo(2);
    }

    @Test
    void repeatAndRetryCannotWalkPastTheLimit() {
        Answers answers = start(redis);
        StepVerifier.create(answers.answer("carol").repeat(9))
            .expectNext("answer for carol", "answer for carol")
            .expectError(RateLimitExceededException.class)
            .verify(WAIT);
        StepVerifier.create(answers.answer("carol").retry(9)).expectError(RateLimitExceededException.class).verify(WAIT);
        assertThat(answers.bodies()).isEqualTo(2);
        assertThat(count("Answers.answer", "carol")).isEqualTo(2);
    }

    @Test
    void aFluxIsDecidedOncePerSubscriptionWhateverItEmits() {
        Answers answers = start(redis);
        Flux<Integer> digits = answers.digits("dave");
        StepVerifier.create(digits).expectNext(1, 2, 3).expectComplete().verify(WAIT);
        StepVerifier.create(digits).expectNext(1, 2, 3).expectComplete().verify(WAIT);
        StepVerifier.create(digits).expectError(RateLimitExceededException.class).verify(WAIT);
        assertThat(answers.bodies()).isEqualTo(2);
        assertThat(count("Answers.digits", "dave")).isEqualTo(2);
    }

    @Test
    void aCompletableFutureIsDecidedWithoutBlockingAndRefusedWithoutRunningTheBody() {
        Answers answers = start(redis);
        assertThat(answers.later("erin")).succeedsWithin(WAIT).isEqualTo("later for erin");
        assertThat(answers.later("erin")).succeedsWithin(WAIT).isEqualTo("later for erin");
        CompletableFuture<String> refused = answers.later("erin");
        assertThat(refused).failsWithin(WAIT)
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOf(RateLimitExceededException.class);
        assertThat(answers.bodies()).isEqualTo(2);
    }

    @Test
    void aRefusedSubscriptionGetsTheFallbacksPublisher() {
        Answers answers = start(redis);
        Mono<String> answer = answers.withFallback("frank");
        StepVerifier.create(answer).expectNext("answer for frank").expectComplete().verify(WAIT);
        StepVerifier.create(answer).expectNext("answer for frank").expectComplete().verify(WAIT);
        StepVerifier.create(answer).expectNext("busy: frank (Answers.withFallback)").expectComplete().verify(WAIT);
        assertThat(answers.bodies()).isEqualTo(2);
    }

    @Test
    void aBlankKeyIsAnErrorSignalNotAThrow() {
        Answers answers = start(redis);
        Mono<String> answer = answers.answer(" ");
        StepVerifier.create(answer).expectError(BlankRateLimitKeyException.class).verify(WAIT);
        assertThat(answers.later(" ")).failsWithin(WAIT)
            .withThrowableOfType(ExecutionException.class)
            .withCauseInstanceOf(BlankRateLimitKeyException.class);
        assertThat(answers.bodies()).isZero();
    }

    @Test
    void theSubscribersContextListenerIsToldAboutItsDecisions() {
        Answers answers = start(redis);
        List<Decision> told = new CopyOnWriteArrayList<>();
        RateLimitListener listener = new RateLimitListener() {
            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                told.add(binding);
            }
        };
        StepVerifier.create(answers.answer("grace").contextWrite(context -> context.put(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE,
                listener))).expectNextCount(1).expectComplete().verify(WAIT);
        assertThat(told).singleElement().satisfies(decision -> assertThat(decision.count()).isEqualTo(1));
        StepVerifier.create(answers.answer("grace")).expectNextCount(1).expectComplete().verify(WAIT);
        assertThat(told).hasSize(1);
    }

    @Test
    void whileRedisCannotDecideEachSubscriptionFollowsItsOnFailureSetting() {
        this.unreachable = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1));
        this.unreachable.afterPropertiesSet();
        this.unreachable.start();
        Answers answers = start(new StringRedisTemplate(this.unreachable));
        StepVerifier.create(answers.answer("heidi")).expectNext("answer for heidi").expectComplete().verify(WAIT);
        StepVerifier.create(answers.strict("heidi"))
            .expectErrorSatisfies(error -> assertThat(error)
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        refused -> assertThat(refused.isFailure()).isTrue()))
            .verify(WAIT);
        assertThat(answers.bodies()).isEqualTo(1);
    }

    @Test
    void aBlockingDecisionOnANonBlockingThreadIsLoggedOncePerMethod() {
        Answers answers = start(redis);
        Logger logger = (Logger) LoggerFactory.getLogger(RateLimitInterceptor.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            answers.plain("ivan");
            assertThat(logged.list).as("not on a non-blocking thread").isEmpty();
            for (int call = 0; call < 2; call++) {
                Mono.fromCallable(() -> answers.plain("ivan")).subscribeOn(Schedulers.parallel()).block(WAIT);
            }
            assertThat(logged.list).singleElement().satisfies(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.WARN);
                assertThat(event.getFormattedMessage()).contains("Answers.plain", "parallel-",
                        "return a Mono, a Flux or a CompletableFuture");
            });
        }
        finally {
            logger.detachAppender(logged);
        }
    }

    private long count(String limitId, String key) {
        return FixedWindows.count(redis, this.prefix + "{" + limitId + ":" + key + "}");
    }

    private Answers start(StringRedisTemplate template) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(template).keyPrefix(this.prefix).build());
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

        private final AtomicInteger bodies = new AtomicInteger();

        @RateLimit(key = "#user", window = "60s", max = 2)
        public Mono<String> answer(String user) {
            this.bodies.incrementAndGet();
            return Mono.just("answer for " + user);
        }

        @RateLimit(key = "#user", window = "60s", max = 5)
        public String plain(String user) {
            return "plain for " + user;
        }

        @RateLimit(key = "#user", window = "60s", max = 2, onFailure = OnFailure.DENY)
        public Mono<String> strict(String user) {
            this.bodies.incrementAndGet();
            return Mono.just("strict answer for " + user);
        }

        @RateLimit(key = "#user", window = "60s", max = 2)
        public Flux<Integer> digits(String user) {
            this.bodies.incrementAndGet();
            return Flux.just(1, 2, 3);
        }

        @RateLimit(key = "#user", window = "60s", max = 2)
        public CompletableFuture<String> later(String user) {
            this.bodies.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "later for " + user);
        }

        @RateLimit(key = "#user", window = "60s", max = 2, fallback = "busy")
        public Mono<String> withFallback(String user) {
            this.bodies.incrementAndGet();
            return Mono.just("answer for " + user);
        }

        public Mono<String> busy(String user, RateLimitExceededException ex) {
            return Mono.just("busy: " + user + " (" + ex.getLimitId() + ")");
        }

        int bodies() {
            return this.bodies.get();
        }

    }

}
