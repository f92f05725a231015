package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Algorithm;
import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.policy.LimitPolicy;
import io.github.limiter.test.CallTimes;
import io.github.limiter.test.Closer;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @RateLimit(maxWait = ...)} on real Redis: a call over the limit waits for room instead of
 * being refused, blocking or not as its method returns, and is refused only when the wait would
 * pass {@code maxWait}; callers on two application contexts sharing one partner limit all get
 * through, and never more than {@code max} of them in any window.
 */
@WithRedis
class WaitingIntegrationTests {

    private static final LimitPolicy PARTNER = new LimitPolicy(null, Duration.ofMillis(300), 2L, null, null)
        .withMaxWait(Duration.ofSeconds(2));

    // when the partner was called, by every caller of every context
    private static final CallTimes calledAt = new CallTimes();

    @AutoClose
    private final Closer closing = new Closer();

    @Test
    void aBlockingCallWaitsForTheNextWindowAndOneThatWouldWaitTooLongIsRefusedAtOnce() {
        Partner partner = start(prefix()).bean(Partner.class);
        long start = System.nanoTime();
        for (int call = 0; call < 5; call++) {
            assertThat(partner.send("m" + call)).isEqualTo("m" + call);
        }
        // 2 a window of 300ms: 5 calls took 3 windows, so they waited for 2 of them to end
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(300));
        long refusing = System.nanoTime();
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> {
            partner.hourly();
            partner.hourly();
        });
        assertThat(Duration.ofNanos(System.nanoTime() - refusing)).as("refused without waiting the hour")
            .isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void futuresAndMonosWaitWithoutAThreadAndAreRefusedPastMaxWait() throws Exception {
        Partner partner = start(prefix()).bean(Partner.class);
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (int call = 0; call < 4; call++) {
            futures.add(partner.sendAsync("f" + call));
        }
        // 4 calls, 2 a window of 300ms: all done within the 2s they may wait
        assertThat(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS))
            .isNull();
        assertThat(futures).extracting(CompletableFuture::join).containsExactly("f0", "f1", "f2", "f3");
        List<String> sent = new ArrayList<>();
        for (int call = 0; call < 3; call++) {
            sent.add(partner.sendReactive("r" + call).block(Duration.ofSeconds(5)));
        }
        assertThat(sent).containsExactly("r0", "r1", "r2");
        assertThat(partner.hourlyAsync()).succeedsWithin(Duration.ofSeconds(5));
        assertThat(partner.hourlyAsync()).failsWithin(Duration.ofSeconds(5))
            .withThrowableOfType(java.util.concurrent.ExecutionException.class)
            .withCauseInstanceOf(RateLimitExceededException.class);
    }

    @Test
    void callersOnTwoInstancesTakeTheRoomInTurnNeverOverMax() throws Exception {
        String prefix = prefix();
        List<Partner> partners = List.of(start(prefix).bean(Partner.class), start(prefix).bean(Partner.class));
        calledAt.clear();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int caller = 0; caller < 4; caller++) {
                Partner partner = partners.get(caller % 2);
                calls.add(callers.submit(() -> {
                    for (int call = 0; call < 3; call++) {
                        partner.shared();
                    }
                    return null;
                }));
            }
            for (Future<?> call : calls) {
                // none was refused: every caller got its turn within maxWait
                call.get(30, TimeUnit.SECONDS);
            }
        }
        finally {
            callers.shutdownNow();
        }
        // a sliding log of 3 per 500ms: any 4 calls in a row span at least the window, less the
        // time from Redis's decision to the partner's call (well under 100ms)
        calledAt.assertNoMoreThan(12, 3, Duration.ofMillis(500), Duration.ofMillis(100));
    }

    @Test
    void aBlockingCallOnAnEventLoopIsRefusedRatherThanSleepThere() {
        Partner partner = start(prefix()).bean(Partner.class);
        Mono<String> onEventLoop = Mono.fromCallable(() -> partner.send("m")).subscribeOn(Schedulers.parallel());
        assertThat(onEventLoop.block(Duration.ofSeconds(5))).isEqualTo("m");
        assertThat(onEventLoop.block(Duration.ofSeconds(5))).isEqualTo("m");
        long start = System.nanoTime();
        // the window of 300ms may end meanwhile: then the call passes, and the next is refused
        assertThatExceptionOfType(RateLimitExceededException.class).isThrownBy(() -> {
            for (int call = 0; call < 3; call++) {
                onEventLoop.block(Duration.ofSeconds(5));
            }
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused, not slept on the event loop")
            .isLessThan(Duration.ofMillis(300));
    }

    @Test
    void aNegativeMaxWaitFailsTheStart() {
        assertThatThrownBy(() -> start(prefix(), Negative.class)).rootCause()
            .isInstanceOf(InvalidRateLimitException.class)
            .hasMessageContaining("maxWait = '-1s' is negative");
    }

    @Test
    void aPolicysMaxWaitApplies() {
        Partner partner = start(prefix()).bean(Partner.class);
        for (int call = 0; call < 3; call++) {
            assertThat(partner.byPolicy("p" + call)).isEqualTo("p" + call);
        }
    }

    private static String prefix() {
        return "waiting-" + UUID.randomUUID() + ":";
    }

    private AdvisedBeans start(String prefix) {
        return start(prefix, Partner.class);
    }

    private AdvisedBeans start(String prefix, Class<?> bean) {
        return this.closing.add(new AdvisedBeans(prefix, new RateLimitAdvisor.Settings(Map.of("partner", PARTNER),
                BlankKey.REJECT, OnFailure.ALLOW), bean));
    }

    public static class Partner {

        @RateLimit(name = "send", key = "'partner'", window = "300ms", max = 2, maxWait = "2s")
        public String send(String message) {
            return message;
        }

        @RateLimit(name = "send-async", key = "'partner'", window = "300ms", max = 2, maxWait = "2s")
        public CompletableFuture<String> sendAsync(String message) {
            return CompletableFuture.completedFuture(message);
        }

        @RateLimit(name = "send-reactive", key = "'partner'", window = "300ms", max = 2, maxWait = "2s")
        public Mono<String> sendReactive(String message) {
            return Mono.just(message);
        }

        @RateLimit(name = "hourly", key = "'partner'", window = "1h", max = 1, maxWait = "2s")
        public String hourly() {
            return "sent";
        }

        @RateLimit(name = "hourly-async", key = "'partner'", window = "1h", max = 1, maxWait = "2s")
        public CompletableFuture<String> hourlyAsync() {
            return CompletableFuture.completedFuture("sent");
        }

        @RateLimit(name = "shared", key = "'partner'", algorithm = Algorithm.SLIDING_LOG, window = "500ms", max = 3,
                maxWait = "10s")
        public void shared() {
            calledAt.called();
        }

        @RateLimit(name = "by-policy", key = "'partner'", policy = "partner")
        public String byPolicy(String message) {
            return message;
        }

    }

    public static class Negative {

        @RateLimit(key = "'partner'", window = "1m", max = 1, maxWait = "-1s")
        public String send() {
            return "sent";
        }

    }

}
