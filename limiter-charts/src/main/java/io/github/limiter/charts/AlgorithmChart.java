package io.github.limiter.charts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.charts.BurstTrace.Call;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Plays the same burst trace through every algorithm at once, against a real Redis it starts
 * itself, and draws the allowed calls over time: {@code docs/images/algorithms.svg}.
 *
 * <pre>
 * ./mvnw -q -pl limiter-charts -am compile exec:java
 * </pre>
 */
public final class AlgorithmChart {

    private AlgorithmChart() {
    }

    public static void main(String[] args) throws Exception {
        Path output = Path.of((args.length > 0) ? args[0] : "docs/images/algorithms.svg");
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            LettuceConnectionFactory connectionFactory = redis.newConnectionFactory();
            try {
                StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
                Map<Algorithm, List<Call>> results = run(
                        RedisRateLimiter.builder(template).keyPrefix("chart-" + UUID.randomUUID() + ":").build());
                write(output, SvgChart.draw(BurstTrace.requestTimes(), results));
                print(results);
                printMemory(redis);
            }
            finally {
                connectionFactory.destroy();
            }
        }
    }

    private static Map<Algorithm, List<Call>> run(RedisRateLimiter limiter) throws Exception {
        warmUp(limiter);
        Map<Algorithm, Future<List<Call>>> futures = new EnumMap<>(Algorithm.class);
        ExecutorService pool = Executors.newFixedThreadPool(Algorithm.values().length);
        try {
            long windowNanos = BurstTrace.WINDOW.toNanos();
            // Start just after an edge of Redis's aligned windows (the sliding window's), so that
            // the burst straddles the next edge for every algorithm alike.
            long wallNanos = System.currentTimeMillis() * 1_000_000;
            long untilEdge = windowNanos - wallNanos % windowNanos + 5_000_000;
            long start = System.nanoTime() + untilEdge;
            for (Algorithm algorithm : Algorithm.values()) {
                Limit limit = Limit.of(BurstTrace.MAX, BurstTrace.WINDOW).withAlgorithm(algorithm);
                futures.put(algorithm, pool.submit(() -> BurstTrace.play(limiter, algorithm.name(), limit, start)));
            }
            Map<Algorithm, List<Call>> results = new EnumMap<>(Algorithm.class);
            for (Map.Entry<Algorithm, Future<List<Call>>> entry : futures.entrySet()) {
                results.put(entry.getKey(), entry.getValue().get());
            }
            return results;
        }
        finally {
            pool.shutdownNow();
        }
    }

    /** Connects, loads the script and warms the JIT, so the trace's first request is not late. */
    private static void warmUp(RedisRateLimiter limiter) {
        for (int i = 0; i < 2000; i++) {
            Algorithm algorithm = Algorithm.values()[i % Algorithm.values().length];
            limiter.tryAcquire("warm-up", Integer.toString(i), Limit.of(5, BurstTrace.WINDOW).withAlgorithm(algorithm));
        }
    }

    /** Redis's own count of the bytes a key's state takes, for a key that has made max calls. */
    private static void printMemory(EmbeddedRedis redis) {
        RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        LettuceConnectionFactory connectionFactory = redis.newConnectionFactory();
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            String prefix = "memory-" + UUID.randomUUID() + ":";
            RedisRateLimiter limiter = RedisRateLimiter.builder(new StringRedisTemplate(connectionFactory))
                .keyPrefix(prefix)
                .build();
            int[] maxes = { 10, 100, 1_000, 10_000, 100_000 };
            System.out.println();
            System.out.println("| algorithm | bytes per key, max 10 | max 100 | max 1,000 | max 10,000 | max 100,000 |");
            System.out.println("| --- | --- | --- | --- | --- | --- |");
            for (Algorithm algorithm : Algorithm.values()) {
                StringBuilder row = new StringBuilder("| " + algorithm);
                for (int max : maxes) {
                    Limit limit = Limit.of(max, Duration.ofHours(1)).withAlgorithm(algorithm);
                    String key = algorithm + "-" + max;
                    for (int call = 0; call < max; call++) {
                        limiter.tryAcquire("memory", key, limit);
                    }
                    row.append(" | ").append(connection.sync().memoryUsage(prefix + "{memory:" + key + "}"));
                }
                System.out.println(row.append(" |"));
            }
            printFreeing(connection, prefix + "{memory:SLIDING_LOG-100000}");
        }
        finally {
            connectionFactory.destroy();
            client.shutdown();
        }
    }

    /**
     * How long Redis's main thread takes to free the largest sliding log, with {@code DEL} and
     * with {@code UNLINK}, from its own statistics ({@code usec} of {@code INFO commandstats}).
     */
    private static void printFreeing(StatefulRedisConnection<String, String> connection, String key) {
        RedisCommands<String, String> commands = connection.sync();
        commands.copy(key, key + ":copy");
        commands.configResetstat();
        commands.del(key);
        commands.unlink(key + ":copy");
        String stats = commands.info("commandstats");
        System.out.println();
        System.out.println("Freeing a SLIDING_LOG key of max 100,000 on Redis's main thread: DEL "
                + usec(stats, "del") + " us, UNLINK " + usec(stats, "unlink") + " us");
    }

    private static String usec(String stats, String command) {
        return stats.lines()
            .filter(line -> line.startsWith("cmdstat_" + command + ":"))
            .map(line -> line.replaceAll("^.*[:,]usec=(\\d+),.*$", "$1"))
            .findFirst()
            .orElse("?");
    }

    private static void write(Path output, String svg) throws IOException {
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, svg, StandardCharsets.UTF_8);
        System.out.println("Wrote " + output.toAbsolutePath());
    }

    private static void print(Map<Algorithm, List<Call>> results) {
        System.out.println();
        results.forEach((algorithm, calls) -> System.out.println(algorithm + " allowed at (ms): "
                + calls.stream().filter(Call::allowed).map(Call::atMs).toList()));
        System.out.println();
        System.out.println("| algorithm | requests | allowed | most allowed in any 1 s | allowed 0.8-1.25 s (the burst) |");
        System.out.println("| --- | --- | --- | --- | --- |");
        results.forEach((algorithm, calls) -> System.out.println("| " + algorithm + " | " + calls.size() + " | "
                + calls.stream().filter(Call::allowed).count() + " | " + BurstTrace.mostInAnyWindow(calls) + " | "
                + calls.stream().filter(c -> c.allowed() && c.atMs() >= 800 && c.atMs() < 1250).count() + " |"));
    }

}
