package io.github.limiter.benchmarks;

import java.util.concurrent.CompletableFuture;

import io.github.limiter.Algorithm;
import io.github.limiter.annotation.RateLimit;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Service;

/**
 * The annotated methods the benchmarks call through the starter's proxy: high limits for the
 * mostly-allowed workload, one call an hour for the mostly-rejected one. The fixed window also
 * returns a {@code Mono}, decided once per subscription, and a {@code CompletableFuture}, decided
 * without blocking; both run their body only when allowed.
 */
@Service
public class Limited {

    @RateLimit(name = "fixed-allowed", key = "#key", window = "1h", max = 100_000_000)
    public void fixedAllowed(String key) {
    }

    @RateLimit(name = "tiered-allowed", key = "#key", window = "1h", max = 100_000_000, alertAt = 90_000_000,
            banFor = "1h")
    public void tieredAllowed(String key) {
    }

    @RateLimit(name = "tiered-rejected", key = "#key", window = "1h", max = 2, alertAt = 1, banFor = "1h")
    public void tieredRejected(String key) {
    }

    @RateLimit(name = "log-allowed", key = "#key", window = "1h", max = 100_000_000, algorithm = Algorithm.SLIDING_LOG)
    public void logAllowed(String key) {
    }

    @RateLimit(name = "window-allowed", key = "#key", window = "1h", max = 100_000_000,
            algorithm = Algorithm.SLIDING_WINDOW)
    public void windowAllowed(String key) {
    }

    @RateLimit(name = "bucket-allowed", key = "#key", window = "1h", max = 100_000_000,
            algorithm = Algorithm.TOKEN_BUCKET)
    public void bucketAllowed(String key) {
    }

    @RateLimit(name = "fixed-rejected", key = "#key", window = "1h", max = 1)
    public void fixedRejected(String key) {
    }

    @RateLimit(name = "log-rejected", key = "#key", window = "1h", max = 1, algorithm = Algorithm.SLIDING_LOG)
    public void logRejected(String key) {
    }

    @RateLimit(name = "window-rejected", key = "#key", window = "1h", max = 1, algorithm = Algorithm.SLIDING_WINDOW)
    public void windowRejected(String key) {
    }

    @RateLimit(name = "bucket-rejected", key = "#key", window = "1h", max = 1, algorithm = Algorithm.TOKEN_BUCKET)
    public void bucketRejected(String key) {
    }

    @RateLimit(name = "mono-fixed-allowed", key = "#key", window = "1h", max = 100_000_000)
    public Mono<String> monoFixedAllowed(String key) {
        return Mono.fromSupplier(() -> key);
    }

    @RateLimit(name = "mono-fixed-rejected", key = "#key", window = "1h", max = 1)
    public Mono<String> monoFixedRejected(String key) {
        return Mono.fromSupplier(() -> key);
    }

    @RateLimit(name = "future-fixed-allowed", key = "#key", window = "1h", max = 100_000_000)
    public CompletableFuture<String> futureFixedAllowed(String key) {
        return CompletableFuture.completedFuture(key);
    }

    @RateLimit(name = "future-fixed-rejected", key = "#key", window = "1h", max = 1)
    public CompletableFuture<String> futureFixedRejected(String key) {
        return CompletableFuture.completedFuture(key);
    }

}
