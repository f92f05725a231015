package io.github.limiter.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

import io.github.limiter.test.EmbeddedRedis;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The HTTP benchmark: starts Redis (Debian's {@code /usr/bin/redis-server} when there is one and
 * {@code -Dlimiter.test.redis-server} names no other) and {@link HttpBenchmarkApp} on Tomcat in this
 * JVM, then drives each endpoint with {@code wrk}: 64 connections, 10,000 users at random, a
 * warm-up of one run per endpoint (not reported), then rounds in alternating order. Prints a Markdown table of each endpoint's median and
 * spread over the rounds, the ratios taken within each round.
 *
 * <p>{@code -Dlimiter.benchmarks.http.seconds} sets each run's length (10),
 * {@code -Dlimiter.benchmarks.http.rounds} the rounds (3), and
 * {@code -Dlimiter.benchmarks.http.endpoints} the endpoints, comma-separated (all five).
 */
public final class HttpBenchmarkMain {

    /** Commands that carry others, or this program's own reads and connections. */
    private static final Pattern NOT_DATA = Pattern.compile("evalsha|eval|info|hello|ping|client.*|command.*");

    private static final List<String> ALL_ENDPOINTS = List.of("unlimited", "limited", "rule", "hand-written",
            "bucket4j");

    private static final List<String> ENDPOINTS = endpoints(
            System.getProperty("limiter.benchmarks.http.endpoints", String.join(",", ALL_ENDPOINTS)));

    private static final String DEBIAN_REDIS = "/usr/bin/redis-server";

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private HttpBenchmarkMain() {
    }

    public static void main(String[] args) {
        Duration duration = Duration.ofSeconds(Integer.getInteger("limiter.benchmarks.http.seconds", 10));
        int rounds = Integer.getInteger("limiter.benchmarks.http.rounds", 3);
        if (System.getProperty("limiter.test.redis-server") == null && System.getenv("LIMITER_TEST_REDIS_SERVER") == null
                && Files.isExecutable(Path.of(DEBIAN_REDIS))) {
            System.setProperty("limiter.test.redis-server", DEBIAN_REDIS);
        }
        Wrk wrk = Wrk.create(2, 64);
        Redis.start();
        try (ConfigurableApplicationContext app = startApp(Redis.server())) {
            String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + "/";
            System.out.printf("Redis %s, %d cores, %s%n", Redis.server().redisVersion(),
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"));
            for (String endpoint : ENDPOINTS) {
                measure(wrk, base, endpoint, duration);
            }
            List<Map<String, Run>> results = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                List<String> order = new ArrayList<>(ENDPOINTS);
                if (round % 2 == 1) {
                    Collections.reverse(order);
                }
                Map<String, Run> runs = new LinkedHashMap<>();
                for (String endpoint : order) {
                    Run run = measure(wrk, base, endpoint, duration);
                    System.out.printf("round %d %-12s %s%n", round + 1, endpoint, run);
                    runs.put(endpoint, run);
                }
                results.add(runs);
            }
            System.out.println();
            System.out.print(table(results, duration));
        }
        finally {
            Redis.stop();
        }
    }

    private static List<String> endpoints(String names) {
        List<String> endpoints = List.of(names.split("\\s*,\\s*"));
        List<String> unknown = endpoints.stream().filter(endpoint -> !ALL_ENDPOINTS.contains(endpoint)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("limiter.benchmarks.http.endpoints names " + unknown
                    + ", which are not among " + ALL_ENDPOINTS);
        }
        return endpoints;
    }

    private static ConfigurableApplicationContext startApp(EmbeddedRedis redis) {
        List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off", "--server.port=0",
                "--server.address=127.0.0.1", "--spring.data.redis.host=" + redis.host(),
                "--spring.data.redis.port=" + redis.port(), "--logging.level.root=WARN"));
        args.addAll(HttpBenchmarkApp.RULE);
        return new SpringApplication(HttpBenchmarkApp.class).run(args.toArray(String[]::new));
    }

    /**
     * One wrk run, with the CPU Redis and this JVM (the application; the driver only waits) spent
     * in it, and the commands Redis ran: script calls, and the commands that read or write data,
     * those run by scripts included.
     */
    private static Run measure(Wrk wrk, String base, String endpoint, Duration duration) {
        Map<String, Long> callsBefore = Redis.server().commandCalls();
        long scriptMicrosBefore = scriptMicros();
        double redisBefore = Redis.cpuSeconds();
        long appBefore = OS.getProcessCpuTime();
        Wrk.Result result = wrk.run(base + endpoint, duration);
        long appNanos = OS.getProcessCpuTime() - appBefore;
        double redisSeconds = Redis.cpuSeconds() - redisBefore;
        long scriptMicros = scriptMicros() - scriptMicrosBefore;
        Map<String, Long> calls = Redis.server().commandCalls();
        callsBefore.forEach((command, count) -> calls.merge(command, -count, Long::sum));
        long scripts = calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
        long data = calls.entrySet()
            .stream()
            .filter(call -> !NOT_DATA.matcher(call.getKey()).matches())
            .mapToLong(Map.Entry::getValue)
            .sum();
        double requests = result.requests();
        return new Run(result, redisSeconds * 1_000_000 / requests, scriptMicros / requests,
                appNanos / 1_000.0 / requests, scripts / requests, data / requests);
    }

    /** The time Redis has spent in script calls, scripts included, sockets not. */
    private static long scriptMicros() {
        return Redis.calls("evalsha").micros() + Redis.calls("eval").micros();
    }

    private static String table(List<Map<String, Run>> rounds, Duration duration) {
        StringBuilder out = new StringBuilder(String.format(
                "%d rounds of %d s per endpoint, 64 connections, 10,000 users; median (lowest, highest) over the "
                        + "rounds, ratios taken within each round%n%n", rounds.size(), duration.toSeconds()))
            .append("| endpoint | req/s | vs unlimited | vs limited | vs hand-written | vs Bucket4j | p50 ms | p99 ms "
                    + "| Redis CPU us/req | vs hand-written | Redis script us/req | app CPU us/req | vs limited "
                    + "| wrk CPU us/req | script calls/req | commands/req | not 2xx | socket errors |\n")
            .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
                    + "| --- |\n");
        for (String endpoint : ENDPOINTS) {
            out.append("| ").append(endpoint)
                .append(" | ").append(spread(rounds, endpoint, run -> run.wrk().perSecond(), "%,.0f"))
                .append(" | ").append(ratio(rounds, endpoint, "unlimited", run -> run.wrk().perSecond()))
                .append(" | ").append(ratio(rounds, endpoint, "limited", run -> run.wrk().perSecond()))
                .append(" | ").append(ratio(rounds, endpoint, "hand-written", run -> run.wrk().perSecond()))
                .append(" | ").append(ratio(rounds, endpoint, "bucket4j", run -> run.wrk().perSecond()))
                .append(" | ").append(spread(rounds, endpoint, run -> run.wrk().p50(), "%.2f"))
                .append(" | ").append(spread(rounds, endpoint, run -> run.wrk().p99(), "%.2f"))
                .append(" | ").append(spread(rounds, endpoint, Run::redisCpu, "%.2f"))
                .append(" | ").append(endpoint.equals("unlimited") ? "" : ratio(rounds, endpoint, "hand-written", Run::redisCpu))
                .append(" | ").append(spread(rounds, endpoint, Run::redisScripts, "%.2f"))
                .append(" | ").append(spread(rounds, endpoint, Run::appCpu, "%.1f"))
                .append(" | ").append(ratio(rounds, endpoint, "limited", Run::appCpu))
                .append(" | ").append(spread(rounds, endpoint, run -> run.wrk().cpuMicros(), "%.1f"))
                .append(" | ").append(spread(rounds, endpoint, Run::scriptCalls, "%.3f"))
                .append(" | ").append(spread(rounds, endpoint, Run::commands, "%.2f"))
                .append(" | ").append(sum(rounds, endpoint, run -> run.wrk().non2xx()))
                .append(" | ").append(sum(rounds, endpoint, run -> run.wrk().socketErrors()))
                .append(" |\n");
        }
        return out.toString();
    }

    private static String spread(List<Map<String, Run>> rounds, String endpoint, ToDoubleFunction<Run> value,
            String format) {
        return BenchmarkMain.spread(rounds.stream().map(round -> value.applyAsDouble(round.get(endpoint))).toList(),
                format, "");
    }

    private static String ratio(List<Map<String, Run>> rounds, String endpoint, String base, ToDoubleFunction<Run> value) {
        if (!ENDPOINTS.contains(base)) {
            return "";
        }
        return BenchmarkMain.spread(rounds.stream()
            .map(round -> value.applyAsDouble(round.get(endpoint)) / value.applyAsDouble(round.get(base)))
            .toList(), "%.2f", "x");
    }

    private static long sum(List<Map<String, Run>> rounds, String endpoint, ToDoubleFunction<Run> value) {
        return (long) rounds.stream().mapToDouble(round -> value.applyAsDouble(round.get(endpoint))).sum();
    }

    /**
     * One endpoint's run: what wrk saw; Redis's CPU, Redis's time in scripts and this JVM's CPU per
     * request, in microseconds; and Redis's script calls and data commands per request.
     */
    private record Run(Wrk.Result wrk, double redisCpu, double redisScripts, double appCpu, double scriptCalls,
            double commands) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%,9.0f req/s, p50 %.2f ms, p99 %.2f ms, Redis %.2f us/req "
                    + "(in scripts %.2f), app %.1f us/req, "
                    + "wrk %.1f us/req, %.3f script calls/req, %.2f commands/req, not 2xx %d, socket errors %d",
                    this.wrk.perSecond(), this.wrk.p50(), this.wrk.p99(), this.redisCpu, this.redisScripts, this.appCpu,
                    this.wrk.cpuMicros(), this.scriptCalls, this.commands, this.wrk.non2xx(), this.wrk.socketErrors());
        }

    }

}
