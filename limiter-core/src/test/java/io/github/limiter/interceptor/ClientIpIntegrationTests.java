package io.github.limiter.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code #clientIp} on real Redis: the address the web support put where a call finds it, on the
 * request's thread (Spring MVC) or in the subscriber's Reactor context (Spring WebFlux, a reactive
 * method's keys then resolved per subscription); none outside a web request; a parameter of that
 * name wins; a key read from a forwarding header is warned about at start.
 */
@WithRedis
class ClientIpIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    private static final Duration WAIT = Duration.ofSeconds(10);

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "client-ip-" + UUID.randomUUID() + ":";

    private @Nullable AnnotationConfigApplicationContext context;

    @AfterEach
    void close() {
        RequestContextHolder.resetRequestAttributes();
        if (this.context != null) {
            this.context.close();
        }
    }

    @Test
    void aBlockingCallKeysOnTheAddressItsRequestHolds() {
        Pages pages = start();
        inRequestFrom("203.0.113.7");
        pages.read();
        pages.read();
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(pages::read)
            .satisfies((ex) -> assertThat(ex.getDecision().key()).isEqualTo("203.0.113.7"));
        inRequestFrom("2001:db8:0:1:0:0:0:0/64");
        pages.read();
        assertThat(redis.keys(this.prefix + "*")).contains(this.prefix + "{pages:203.0.113.7}",
                this.prefix + "{pages:2001:db8:0:1:0:0:0:0/64}");
    }

    @Test
    void outsideAWebRequestThereIsNoAddress() {
        Pages pages = start();
        assertThatExceptionOfType(BlankRateLimitKeyException.class).isThrownBy(pages::read);
        assertThat(redis.keys(this.prefix + "*")).isEmpty();
    }

    @Test
    void aReactiveCallKeysOnTheAddressItsSubscriberCarries() {
        Pages pages = start();
        // resolved per subscription: the call itself, on no request's thread, reads nothing yet
        Mono<String> fromOne = pages.stream().contextWrite((context) -> context.put(
                RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, "198.51.100.1"));
        Mono<String> fromAnother = pages.stream().contextWrite((context) -> context.put(
                RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, "198.51.100.2"));
        StepVerifier.create(fromOne).expectNext("page").expectComplete().verify(WAIT);
        StepVerifier.create(fromOne).expectNext("page").expectComplete().verify(WAIT);
        StepVerifier.create(fromOne).expectErrorSatisfies((ex) -> assertThat(ex)
            .isInstanceOf(RateLimitExceededException.class)
            .satisfies((refused) -> assertThat(((RateLimitExceededException) refused).getDecision().key())
                .isEqualTo("198.51.100.1")))
            .verify(WAIT);
        StepVerifier.create(fromAnother).expectNext("page").expectComplete().verify(WAIT);
        StepVerifier.create(pages.stream()).expectError(BlankRateLimitKeyException.class).verify(WAIT);
        assertThat(pages.streamed()).as("bodies run: allowed subscriptions only").isEqualTo(3);
    }

    @Test
    void aReactiveCallsZoneReadsTheAddressItsSubscriberCarries() {
        Pages pages = start();
        Mono<String> fromTokyo = pages.daily().contextWrite((context) -> context.put(
                RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, "198.51.100.1"));
        StepVerifier.create(fromTokyo).expectNext("page").expectComplete().verify(WAIT);
        long tokyoMidnight = CalendarWindow.DAY.end(Instant.now(), ZoneId.of("Asia/Tokyo")).toEpochMilli();
        assertThat(redis.opsForHash().keys(this.prefix + "{daily}")).containsExactly(Long.toString(tokyoMidnight));
    }

    @Test
    void aParameterNamedClientIpWins() {
        Pages pages = start();
        inRequestFrom("203.0.113.9");
        pages.forClient("192.0.2.33");
        assertThat(redis.keys(this.prefix + "*")).containsExactly(this.prefix + "{given:192.0.2.33}");
    }

    @Test
    void aKeyReadFromAForwardingHeaderIsWarnedAboutOnceAtStart() {
        Logger logger = (Logger) LoggerFactory.getLogger(KeyExpressions.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            Pages pages = start();
            inRequestFrom("203.0.113.10");
            pages.forwarded(Map.of("X-Forwarded-For", "10.0.0.1"));
            pages.forwarded(Map.of("X-Forwarded-For", "10.0.0.2"));
        }
        finally {
            logger.detachAppender(logged);
        }
        assertThat(logged.list).singleElement().satisfies((event) -> {
            assertThat(event.getLevel().toString()).isEqualTo("WARN");
            assertThat(event.getFormattedMessage()).contains("#headers['X-Forwarded-For']", "Pages.forwarded",
                    "any client can send X-Forwarded-For", "#clientIp", "server.forward-headers-strategy=native");
        });
    }

    private Pages start() {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        RedisRateLimiter limiter = this.closing.add(RedisRateLimiter.builder(redis).keyPrefix(this.prefix).build());
        context.getBeanFactory().registerSingleton("rateLimiter", limiter);
        context.register(ReactiveMethodsIntegrationTests.AdvisorConfig.class, Pages.class);
        this.context = context;
        context.refresh();
        return context.getBean(Pages.class);
    }

    /** What the starter's Spring MVC support does for each request, without a servlet container. */
    private static void inRequestFrom(String address) {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE, address);
        RequestContextHolder.setRequestAttributes(new MapAttributes(attributes));
    }

    static class Pages {

        private volatile int streamed;

        public int streamed() {
            return this.streamed;
        }

        @RateLimit(name = "pages", key = "#clientIp", window = "1m", max = 2, algorithm = Algorithm.SLIDING_LOG)
        public String read() {
            return "page";
        }

        @RateLimit(name = "daily", max = 5, calendar = CalendarWindow.DAY,
                zone = "#clientIp.startsWith('198.51.100.') ? 'Asia/Tokyo' : 'UTC'")
        public Mono<String> daily() {
            return Mono.just("page");
        }

        @RateLimit(name = "streams", key = "#clientIp", window = "1m", max = 2, algorithm = Algorithm.SLIDING_LOG)
        public Mono<String> stream() {
            return Mono.fromSupplier(() -> {
                this.streamed++;
                return "page";
            });
        }

        @RateLimit(name = "given", key = "#clientIp", window = "1m", max = 2, algorithm = Algorithm.SLIDING_LOG)
        public String forClient(String clientIp) {
            return clientIp;
        }

        @RateLimit(name = "forwarded", key = "#headers['X-Forwarded-For']", window = "1m", max = 5,
                algorithm = Algorithm.SLIDING_LOG)
        public String forwarded(Map<String, String> headers) {
            return "page";
        }

    }

    /** Request attributes of a map. */
    private record MapAttributes(Map<String, Object> attributes) implements RequestAttributes {

        @Override
        public @Nullable Object getAttribute(String name, int scope) {
            return this.attributes.get(name);
        }

        @Override
        public void setAttribute(String name, Object value, int scope) {
            this.attributes.put(name, value);
        }

        @Override
        public void removeAttribute(String name, int scope) {
            this.attributes.remove(name);
        }

        @Override
        public String[] getAttributeNames(int scope) {
            return this.attributes.keySet().toArray(String[]::new);
        }

        @Override
        public void registerDestructionCallback(String name, Runnable callback, int scope) {
        }

        @Override
        public @Nullable Object resolveReference(String key) {
            return null;
        }

        @Override
        public String getSessionId() {
            return "session";
        }

        @Override
        public Object getSessionMutex() {
            return this;
        }

    }

}
