package io.github.limiter.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.github.limiter.test.EmbeddedRedis;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs every benchmark at 1 and 64 threads, in this JVM, against one Redis it starts, then prints
 * decisions per second, p50 and p99 per row with each row's ratio to the raw Lettuce floor, and the
 * allocation per call of the annotated path. Writes the table to {@code docs/benchmarks.md} and a
 * chart to {@code docs/images/performance.svg}.
 *
 * <pre>
 * ./mvnw -q -pl limiter-benchmarks -am compile exec:java
 * </pre>
 */
public final class BenchmarkMain {

    private static final String FLOOR = "rawLettuceEvalsha";

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        Path docs = Path.of((args.length > 0) ? args[0] : "docs");
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            Redis.server = redis;
            List<Row> rows = new ArrayList<>();
            for (int threads : new int[] { 1, 64 }) {
                rows.addAll(rows(run(options().threads(threads)), threads));
            }
            Collection<RunResult> gc = run(options().threads(1)
                .include(DecisionBenchmarks.class.getSimpleName() + ".(annotatedPathWithoutRedis|annotatedFixedWindow)$")
                .param("workload", "allowed")
                .addProfiler(GCProfiler.class));
            String table = table(rows) + "\n" + allocation(gc);
            System.out.println();
            System.out.println(table);
            Files.writeString(docs.resolve("benchmarks.md"), "# Benchmark results\n\nWritten by `./mvnw -q -pl "
                    + "limiter-benchmarks -am compile exec:java`; see [performance.md](performance.md).\n\n" + table,
                    StandardCharsets.UTF_8);
            Files.createDirectories(docs.resolve("images"));
            Files.writeString(docs.resolve("images/performance.svg"), chart(rows), StandardCharsets.UTF_8);
        }
    }

    private static String chart(List<Row> rows) {
        List<String> titles = List.of("mostly allowed, 64 threads", "mostly rejected, 64 threads");
        List<List<BarChart.Bar>> panels = new ArrayList<>();
        for (String workload : List.of("allowed", "rejected")) {
            panels.add(rows.stream()
                .filter(row -> row.threads() == 64 && row.workload().equals(workload))
                .filter(row -> !row.name().equals("annotatedPathWithoutRedis"))
                .sorted((a, b) -> Double.compare(b.perSecond(), a.perSecond()))
                .map(row -> new BarChart.Bar(row.name(), row.perSecond(), row.name().equals(FLOOR)))
                .toList());
        }
        return BarChart.draw("Decisions per second on one Redis (2 cores); grey: raw Lettuce EVALSHA, the floor", titles,
                panels);
    }

    private static ChainedOptionsBuilder options() {
        return new OptionsBuilder().include(DecisionBenchmarks.class.getSimpleName())
            .forks(0)
            .warmupIterations(1)
            .warmupTime(TimeValue.seconds(2))
            .measurementIterations(2)
            .measurementTime(TimeValue.seconds(2))
            .shouldFailOnError(true);
    }

    private static Collection<RunResult> run(ChainedOptionsBuilder options) throws RunnerException {
        return new Runner(options.build()).run();
    }

    private static List<Row> rows(Collection<RunResult> results, int threads) {
        List<Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            Statistics stats = result.getPrimaryResult().getStatistics();
            String name = result.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1);
            double meanMicros = stats.getMean();
            rows.add(new Row(name, result.getParams().getParam("workload"), threads, threads * 1_000_000 / meanMicros,
                    stats.getPercentile(50), stats.getPercentile(99)));
        }
        return rows;
    }

    private static String table(List<Row> rows) {
        Map<String, Row> floors = new TreeMap<>();
        rows.stream().filter(row -> row.name().equals(FLOOR)).forEach(row -> floors.put(row.group(), row));
        StringBuilder out = new StringBuilder(
                "| benchmark | workload | threads | decisions/s | p50 us | p99 us | throughput vs raw | p99 vs raw |\n"
                        + "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        rows.stream()
            .sorted((a, b) -> a.group().equals(b.group()) ? Double.compare(b.perSecond(), a.perSecond())
                    : a.group().compareTo(b.group()))
            .forEach(row -> {
                Row floor = floors.get(row.group());
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %.1f | %.1f | %.2fx | %.2fx |%n",
                        row.name(), row.workload(), row.threads(), row.perSecond(), row.p50(), row.p99(),
                        row.perSecond() / floor.perSecond(), row.p99() / floor.p99()));
            });
        return out.toString();
    }

    private static String allocation(Collection<RunResult> results) {
        StringBuilder out = new StringBuilder("| benchmark (1 thread, mostly allowed) | mean us | allocated bytes per call |\n"
                + "| --- | --- | --- |\n");
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark();
            Result<?> alloc = result.getSecondaryResults().get("gc.alloc.rate.norm");
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %s |%n", name.substring(name.lastIndexOf('.') + 1),
                    result.getPrimaryResult().getStatistics().getMean(),
                    (alloc != null) ? String.format(Locale.ROOT, "%.0f", alloc.getScore()) : "n/a"));
        }
        return out.toString();
    }

    private record Row(String name, String workload, int threads, double perSecond, double p50, double p99) {

        String group() {
            return this.workload + "/" + String.format(Locale.ROOT, "%03d", this.threads);
        }

    }

}
