package io.github.limiter.reactiveweb;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.annotation.RateLimit;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebFilter;

/**
 * A WebFlux application limited as a user's would be: annotated handlers returning Mono, Flux and
 * CompletableFuture, configured by properties only, beside handlers that are not limited.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ ReactiveAnswers.Answers.class, ReactiveAnswers.OwnHandling.class, ReactiveAnswers.Careless.class,
        ReactiveAnswers.Elsewhere.class })
class ReactiveAnswers {

    /** The threads the responses were committed on, in order. */
    static final List<String> commitThreads = new CopyOnWriteArrayList<>();

    @Bean
    WebFilter commitThreadRecorder() {
        return (exchange, chain) -> {
            exchange.getResponse().beforeCommit(() -> Mono.fromRunnable(
                    () -> commitThreads.add(Thread.currentThread().getName())));
            return chain.filter(exchange);
        };
    }

    // public methods: @RateLimit applies to public methods only
    @RestController
    static class Answers {

        private final AtomicInteger bodies = new AtomicInteger();

        /** How many times a handler's body ran. */
        public int bodies() {
            return this.bodies.get();
        }

        // a reads policy of the test's: max 2 a minute, alert at 1, banned for 10 minutes past it
        @GetMapping("/reads/{user}")
        @RateLimit(name = "reads", policy = "reads", key = "#user")
        public Mono<String> read(@PathVariable String user) {
            this.bodies.incrementAndGet();
            return Mono.just("read for " + user);
        }

        @GetMapping("/digits/{user}")
        @RateLimit(key = "#user", window = "1m", max = 1)
        public Flux<String> digits(@PathVariable String user) {
            this.bodies.incrementAndGet();
            return Flux.just("1", "2", "3").delayElements(Duration.ofMillis(1));
        }

        @GetMapping("/later/{user}")
        @RateLimit(key = "#user", window = "1m", max = 1)
        public CompletableFuture<String> later(@PathVariable String user) {
            this.bodies.incrementAndGet();
            return CompletableFuture.completedFuture("later for " + user);
        }

        // a partner's API that takes one call per 400 ms: a call over it waits its turn, up to 3s
        @GetMapping("/partner/{user}")
        @RateLimit(key = "#user", window = "400ms", max = 1, maxWait = "3s")
        public Mono<String> partner(@PathVariable String user) {
            this.bodies.incrementAndGet();
            return Mono.just("partner called for " + user);
        }

        @GetMapping("/strict/{user}")
        @RateLimit(key = "#user", window = "1m", max = 5, onFailure = OnFailure.DENY)
        public Mono<String> strict(@PathVariable String user) {
            this.bodies.incrementAndGet();
            return Mono.just("strict for " + user);
        }

        // counted in the instance's memory while Redis cannot decide
        @GetMapping("/local/{user}")
        @RateLimit(key = "#user", window = "1m", max = 2, onFailure = OnFailure.LOCAL)
        public Mono<String> local(@PathVariable String user) {
            this.bodies.incrementAndGet();
            return Mono.just("local for " + user);
        }

    }

    /** Not limited, and answers on another thread than the request's. */
    @RestController
    static class Elsewhere {

        @GetMapping("/elsewhere")
        public Mono<String> elsewhere() {
            return Mono.delay(Duration.ofMillis(1)).map(tick -> "answered elsewhere");
        }

    }

    /** Blocks a non-blocking thread on purpose: the proof that BlockHound watches. */
    @RestController
    static class Careless {

        @GetMapping("/careless")
        public Mono<String> careless() {
            return Mono.delay(Duration.ofMillis(1)).map(tick -> {
                try {
                    Thread.sleep(1);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                return "slept";
            });
        }

    }

    /** A controller that answers its own refusals: the starter's answer backs off for it. */
    @RestController
    static class OwnHandling {

        @GetMapping("/own/{user}")
        @RateLimit(key = "#user", window = "1m", max = 1)
        public Mono<String> own(@PathVariable String user) {
            return Mono.just("own for " + user);
        }

        @ExceptionHandler(RateLimitExceededException.class)
        public ResponseEntity<String> refused(RateLimitExceededException ex) {
            return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("slow down, " + ex.getKey());
        }

    }

}
