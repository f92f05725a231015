package io.github.limiter.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitListener;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class CallListenerTests {

    private static final Decision DECISION = new Decision("id", "key", Outcome.ALLOWED, 3, 1, 2, Duration.ZERO,
            Duration.ofSeconds(60), false, false, false, false);

    @Test
    void noneOrOneIsItself() {
        RateLimitListener one = new RateLimitListener() {
        };
        assertThat(CallListener.both(null, null)).isNull();
        assertThat(CallListener.both(one, null)).isSameAs(one);
        assertThat(CallListener.both(null, one)).isSameAs(one);
    }

    @Test
    void bothAreToldInOrderAndTheSecondEvenIfTheFirstThrows() {
        List<String> told = new ArrayList<>();
        RateLimitListener failing = new RateLimitListener() {

            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                told.add("first");
                throw new IllegalStateException("first failed");
            }

        };
        RateLimitListener second = new RateLimitListener() {

            @Override
            public void onDecision(List<LimitRequest> requests, List<Decision> decisions, Decision binding,
                    Duration latency) {
                told.add("second " + binding.remaining());
            }

        };
        RateLimitListener both = CallListener.both(failing, second);
        assertThatIllegalStateException()
            .isThrownBy(() -> both.onDecision(List.of(), List.of(DECISION), DECISION, Duration.ZERO))
            .withMessage("first failed");
        assertThat(told).containsExactly("first", "second 2");
    }

}
