package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitListener;
import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.RedisServerExtension;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Beans limited by their {@code @RateLimit}s, as an application has them: an application context
 * with the advisor, on a {@link RedisRateLimiter} of the test's Redis under a key prefix of its
 * own, with every decision the limiter is asked for recorded. Closes the context and the limiter.
 */
final class AdvisedBeans implements AutoCloseable {

    /** No policies, a blank key refused, calls allowed while Redis cannot decide. */
    static final RateLimitAdvisor.Settings DEFAULTS = new RateLimitAdvisor.Settings(Map.of(), BlankKey.REJECT,
            OnFailure.ALLOW);

    // the limit ids of each decision the limiter was asked for: one per script call
    private final List<List<String>> decided = new CopyOnWriteArrayList<>();

    // each limit's decision of those calls
    private final List<Decision> decisions = new CopyOnWriteArrayList<>();

    private final RedisRateLimiter limiter;

    private final AnnotationConfigApplicationContext context;

    /**
     * Starts the beans.
     * @param prefix the key prefix, which instances sharing counts share
     * @param settings the advisor's policies and defaults
     * @param beans the limited beans' classes
     */
    AdvisedBeans(String prefix, RateLimitAdvisor.Settings settings, Class<?>... beans) {
        this.limiter = RedisRateLimiter.builder(RedisServerExtension.template()).keyPrefix(prefix).build();
        this.context = new AnnotationConfigApplicationContext();
        this.context.getBeanFactory().registerSingleton("rateLimiter", new Recording());
        this.context.getBeanFactory().registerSingleton("settings", settings);
        this.context.register(AdvisorConfig.class);
        this.context.register(beans);
        try {
            this.context.refresh();
        }
        catch (RuntimeException ex) {
            close();
            throw ex;
        }
    }

    <T> T bean(Class<T> type) {
        return this.context.getBean(type);
    }

    RateLimitAdvisor advisor() {
        return this.context.getBean(RateLimitAdvisor.class);
    }

    RedisRateLimiter limiter() {
        return this.limiter;
    }

    /** The limit ids of each decision made so far, one list per script call. */
    List<List<String>> decided() {
        return this.decided;
    }

    /** Each limit's decision of the calls decided so far. */
    List<Decision> decisions() {
        return this.decisions;
    }

    /** Forgets the decisions recorded so far. */
    void clear() {
        this.decided.clear();
        this.decisions.clear();
    }

    @Override
    public void close() {
        this.context.close();
        this.limiter.close();
    }

    /** The limiter, recording each decision it is asked for and makes. */
    private final class Recording implements RateLimiter, RateLimitListener {

        @Override
        public Decision tryAcquire(List<LimitRequest> requests) {
            return tryAcquire(requests, null);
        }

        @Override
        public Decision tryAcquire(List<LimitRequest> requests, @Nullable RateLimitListener listener) {
            AdvisedBeans.this.decided.add(requests.stream().map(LimitRequest::limitId).toList());
            return AdvisedBeans.this.limiter.tryAcquire(requests, CallListener.both(listener, this));
        }

        @Override
        public CompletionStage<Decision> tryAcquireAsync(List<LimitRequest> requests) {
            return tryAcquireAsync(requests, null);
        }

        @Override
        public CompletionStage<Decision> tryAcquireAsync(List<LimitRequest> requests,
                @Nullable RateLimitListener listener) {
            AdvisedBeans.this.decided.add(requests.stream().map(LimitRequest::limitId).toList());
            return AdvisedBeans.this.limiter.tryAcquireAsync(requests, CallListener.both(listener, this));
        }

        @Override
        public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                Duration latency) {
            AdvisedBeans.this.decisions.addAll(decisions);
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class AdvisorConfig {

        @Bean
        static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
            return new DefaultAdvisorAutoProxyCreator();
        }

        @Bean
        static RateLimitAdvisor rateLimitAdvisor(BeanFactory beanFactory) {
            return new RateLimitAdvisor(() -> beanFactory.getBean(RateLimiter.class), beanFactory,
                    () -> beanFactory.getBean(RateLimitAdvisor.Settings.class));
        }

    }

}
