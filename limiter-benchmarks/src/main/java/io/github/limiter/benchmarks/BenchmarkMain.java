package io.github.limiter.benchmarks;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.BenchmarkParams;
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
 * Runs every benchmark at 1 and 64 threads, in this JVM, against one Redis it starts (the
 * embedded one, or the {@code redis-server} that {@code -Dlimiter.test.redis-server} names), then
 * prints decisions per second, p50 and p99 per row with each row's ratio to the floor, a
 * hand-written fixed-window script by EVALSHA ({@value #FLOOR}); each algorithm against a
 * hand-written script of the same algorithm; then the rows the targets are about again, in rounds
 * of alternating order, at 64 threads and at 1; then the allocation per call of the annotated path,
 * of the starter's script by raw Lettuce and of the floor. Rows whose refusals differ run on both
 * workloads; the others on the mostly allowed one only. Every row also gives the CPU time one decision costs this
 * JVM and the Redis server, and Redis's own time per EVALSHA ({@link CpuProfiler}). Writes the
 * tables to {@code docs/benchmarks.md}, and charts of decisions per second and of Redis CPU per
 * decision to {@code docs/images/performance.svg} and {@code docs/images/redis-cpu.svg}.
 *
 * <pre>
 * ./mvnw -q -pl limiter-benchmarks -am compile exec:java
 * </pre>
 *
 * <p>A subset, for comparing a few rows between two builds, runs when {@value #INCLUDE} is set: a
 * regular expression that must match a whole {@link DecisionBenchmarks} method name. After the same
 * JIT warm-up, the selected rows run one at a time, at 1 and then at 64 threads, with the same
 * iterations as the full run, in {@value #ROUNDS_PROPERTY} rounds (1 if not set) whose order
 * alternates; both workloads, or the one {@value #WORKLOAD} names. It prints one table per round,
 * with ratios to the floor in the same round when that row is selected, and the spread over the
 * rounds; it writes no file.
 *
 * <pre>
 * ./mvnw -q -pl limiter-benchmarks -am compile exec:java \
 *     -Dlimiter.benchmarks.include='annotatedFixedWindow|handWrittenFixedWindow' -Dlimiter.benchmarks.rounds=2
 * </pre>
 */
public final class BenchmarkMain {

    /** The row every other is compared with: the fixed window a user would write by hand. */
    private static final String FLOOR = "handWrittenFixedWindow";

    private static final String ALL = DecisionBenchmarks.class.getSimpleName() + ".";

    /** The rows the targets at 64 threads are about, run again in rounds: the floor first. */
    private static final List<String> TARGET_ROWS = List.of(FLOOR, "annotatedFixedWindow",
            "annotatedFixedWindowNoLocalCache", "annotatedFixedWindowUncoalesced");

    /** The rows the target at 1 thread is about: coalescing on, then off. */
    private static final List<String> ONE_THREAD_ROWS = List.of("annotatedFixedWindow",
            "annotatedFixedWindowUncoalesced");

    /** Rows run on both workloads: those whose refusals differ (local memory, libraries). */
    private static final String BOTH_WORKLOADS = "handWrittenFixedWindow|annotatedFixedWindow|"
            + "annotatedFixedWindowNoLocalCache|annotatedMonoFixedWindow|bucket4jLettuce|redissonRateLimiter|"
            + "naiveIncrThenExpire";

    /** Rows run on the mostly allowed workload only, where every decision reaches Redis. */
    private static final String ALLOWED_ONLY = "rawLettuceEvalsha|asyncFixedWindow|"
            + "annotatedCompletableFutureFixedWindow|annotatedFixedWindowTiers|annotatedFixedWindowUncoalesced|"
            + "annotatedSlidingLog|annotatedSlidingWindow|annotatedTokenBucket|handWrittenSlidingLog|"
            + "handWrittenSlidingWindow|handWrittenTokenBucket|handWrittenGcra|annotatedPathWithoutRedis";

    /** Each starter row beside the hand-written script of the same algorithm. */
    private static final List<List<String>> SAME_ALGORITHM = List.of(List.of("annotatedFixedWindow", FLOOR),
            List.of("annotatedFixedWindowUncoalesced", FLOOR), List.of("annotatedFixedWindowTiers", FLOOR),
            List.of("annotatedSlidingLog", "handWrittenSlidingLog"),
            List.of("annotatedSlidingWindow", "handWrittenSlidingWindow"),
            List.of("annotatedTokenBucket", "handWrittenTokenBucket"), List.of("annotatedTokenBucket", "handWrittenGcra"));

    private static final int ROUNDS = 3;

    /** Selects the rows of a subset run: a regular expression over whole method names. */
    static final String INCLUDE = "limiter.benchmarks.include";

    /** The number of alternating rounds of a subset run; 1 if not set. */
    static final String ROUNDS_PROPERTY = "limiter.benchmarks.rounds";

    /** The one workload of a subset run, {@code allowed} or {@code rejected}; both if not set. */
    static final String WORKLOAD = "limiter.benchmarks.workload";

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        Path docs = Path.of((args.length > 0) ? args[0] : "docs");
        String include = System.getProperty(INCLUDE);
        List<String> subset = (include != null) ? subset(include) : null;
        int subsetRounds = subsetRounds(include != null);
        String workload = subsetWorkload(include != null);
        Redis.start();
        try {
            // JIT warm-up of the code every row shares (Spring, Lettuce, the starter, refusals from
            // memory), not reported: otherwise the first rows measured pay for it
            run(options(ALL + "(annotatedFixedWindow|rawLettuceEvalsha)$").threads(64).measurementIterations(1));
            if (subset != null) {
                List<List<Row>> rounds = subset(subset, subsetRounds, workload);
                System.out.println();
                System.out.println(subsetTables(rounds));
                return;
            }
            List<Row> rows = new ArrayList<>();
            for (int threads : new int[] { 1, 64 }) {
                rows.addAll(rows(run(options(ALL + "(" + BOTH_WORKLOADS + ")$").threads(threads)), threads));
                rows.addAll(rows(run(options(ALL + "(" + ALLOWED_ONLY + ")$").threads(threads)
                    .param("workload", "allowed")), threads));
            }
            List<Map<String, Row>> rounds = rounds(TARGET_ROWS, 64);
            List<Map<String, Row>> oneThread = rounds(ONE_THREAD_ROWS, 1);
            Collection<RunResult> gc = run(
                    options(ALL + "(annotatedPathWithoutRedis|annotatedFixedWindow|rawLettuceEvalsha|" + FLOOR + ")$")
                .threads(1)
                .param("workload", "allowed")
                .addProfiler(GCProfiler.class));
            String table = table(rows) + "\n" + sameAlgorithm(rows) + "\n" + rounds(rounds) + "\n"
                    + oneThread(oneThread) + "\n" + allocation(gc);
            System.out.println();
            System.out.println(table);
            Files.writeString(docs.resolve("benchmarks.md"), "# Benchmark results\n\nWritten by `./mvnw -q -pl "
                    + "limiter-benchmarks -am compile exec:java`; see [performance.md](performance.md).\n\n" + table,
                    StandardCharsets.UTF_8);
            Files.createDirectories(docs.resolve("images"));
            Files.writeString(docs.resolve("images/performance.svg"),
                    chart(rows, "Decisions per second on one Redis (2 cores); grey: hand-written script, the floor",
                            "%,.0f/s", Row::perSecond, true),
                    StandardCharsets.UTF_8);
            Files.writeString(docs.resolve("images/redis-cpu.svg"),
                    chart(rows, "Redis CPU per decision, microseconds (fewer: more decisions per Redis core)",
                            "%.1f us", Row::redisCpu, false),
                    StandardCharsets.UTF_8);
        }
        finally {
            Redis.stop();
        }
    }

    /** The benchmark methods whose whole name the expression matches, in name order. */
    private static List<String> subset(String include) {
        Pattern pattern = Pattern.compile(include);
        List<String> names = Arrays.stream(DecisionBenchmarks.class.getMethods())
            .filter(method -> method.isAnnotationPresent(Benchmark.class))
            .map(Method::getName)
            .filter(name -> pattern.matcher(name).matches())
            .sorted()
            .toList();
        if (names.isEmpty()) {
            throw new IllegalArgumentException(INCLUDE + "=" + include + " matches no method of "
                    + DecisionBenchmarks.class.getSimpleName());
        }
        return names;
    }

    private static int subsetRounds(boolean subset) {
        String rounds = System.getProperty(ROUNDS_PROPERTY);
        if (rounds == null) {
            return 1;
        }
        if (!subset) {
            throw new IllegalArgumentException(ROUNDS_PROPERTY + " needs " + INCLUDE
                    + "; the full run always does its " + ROUNDS + " target rounds");
        }
        int value = Integer.parseInt(rounds.trim());
        if (value < 1) {
            throw new IllegalArgumentException(ROUNDS_PROPERTY + " must be at least 1, not " + value);
        }
        return value;
    }

    private static String subsetWorkload(boolean subset) {
        String workload = System.getProperty(WORKLOAD);
        if (workload == null) {
            return null;
        }
        if (!subset) {
            throw new IllegalArgumentException(WORKLOAD + " needs " + INCLUDE + "; the full run runs both workloads");
        }
        if (!List.of("allowed", "rejected").contains(workload)) {
            throw new IllegalArgumentException(WORKLOAD + " must be allowed or rejected, not " + workload);
        }
        return workload;
    }

    /**
     * Runs the selected rows one at a time, at 1 then 64 threads, in rounds whose order of rows
     * alternates, as the target rounds do: a ratio in a round compares runs seconds apart.
     */
    private static List<List<Row>> subset(List<String> names, int rounds, String workload)
            throws RunnerException {
        List<List<Row>> results = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(names);
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            List<Row> rows = new ArrayList<>();
            for (int threads : new int[] { 1, 64 }) {
                for (String name : order) {
                    ChainedOptionsBuilder options = options(ALL + name + "$").threads(threads);
                    if (workload != null) {
                        options.param("workload", workload);
                    }
                    rows.addAll(rows(run(options), threads));
                }
            }
            results.add(rows);
        }
        return results;
    }

    /** One table per round, then each row's median and range over the rounds. */
    private static String subsetTables(List<List<Row>> rounds) {
        StringBuilder out = new StringBuilder();
        Map<String, List<Row>> byRow = new LinkedHashMap<>();
        Map<String, List<Double>> throughputRatios = new LinkedHashMap<>();
        Map<String, List<Double>> p99Ratios = new LinkedHashMap<>();
        for (int i = 0; i < rounds.size(); i++) {
            List<Row> rows = sorted(rounds.get(i));
            Map<String, Row> floors = floors(rows);
            out.append("Round ").append(i + 1).append(" of ").append(rounds.size()).append(", order: ")
                .append(String.join(", ", rounds.get(i).stream().map(Row::name).distinct().toList()))
                .append("\n\n")
                .append(table(rows))
                .append('\n');
            for (Row row : rows) {
                String id = row.name() + " | " + row.workload() + " | " + row.threads();
                byRow.computeIfAbsent(id, k -> new ArrayList<>()).add(row);
                Row floor = floors.get(row.group());
                if (floor != null) {
                    throughputRatios.computeIfAbsent(id, k -> new ArrayList<>()).add(row.perSecond() / floor.perSecond());
                    p99Ratios.computeIfAbsent(id, k -> new ArrayList<>()).add(row.p99() / floor.p99());
                }
            }
        }
        out.append("Over ").append(rounds.size()).append(rounds.size() == 1 ? " round" : " rounds")
            .append(": median (lowest, highest)\n\n")
            .append("| benchmark | workload | threads | decisions/s | p50 us | p99 us | throughput vs floor "
                    + "| p99 vs floor | app CPU us |\n")
            .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        byRow.forEach((id, rows) -> out.append("| ")
            .append(id)
            .append(" | ")
            .append(spread(rows.stream().map(Row::perSecond).toList(), "%,.0f", ""))
            .append(" | ")
            .append(spread(rows.stream().map(Row::p50).toList(), "%.1f", ""))
            .append(" | ")
            .append(spread(rows.stream().map(Row::p99).toList(), "%.1f", ""))
            .append(" | ")
            .append(spread(throughputRatios.getOrDefault(id, List.of()), "%.2f", "x"))
            .append(" | ")
            .append(spread(p99Ratios.getOrDefault(id, List.of()), "%.2f", "x"))
            .append(" | ")
            .append(spread(rows.stream().map(Row::appCpu).toList(), "%.2f", ""))
            .append(" |\n"));
        return out.toString();
    }

    static String spread(List<Double> values, String format, String unit) {
        if (values.isEmpty()) {
            return "";
        }
        String median = String.format(Locale.ROOT, format, median(values)) + unit;
        if (values.size() == 1) {
            return median;
        }
        return median + " (" + String.format(Locale.ROOT, format, Collections.min(values)) + unit + ", "
                + String.format(Locale.ROOT, format, Collections.max(values)) + unit + ")";
    }

    /** Draws one figure of every row at 64 threads, a panel per workload, largest first if asked. */
    private static String chart(List<Row> rows, String title, String valueFormat, ToDoubleFunction<Row> value,
            boolean largestFirst) {
        List<String> titles = List.of("mostly allowed, 64 threads", "mostly rejected, 64 threads");
        Comparator<Row> order = Comparator.comparingDouble(value);
        List<List<BarChart.Bar>> panels = new ArrayList<>();
        for (String workload : List.of("allowed", "rejected")) {
            panels.add(rows.stream()
                .filter(row -> row.threads() == 64 && row.workload().equals(workload))
                .filter(row -> !row.name().equals("annotatedPathWithoutRedis"))
                .sorted(largestFirst ? order.reversed() : order)
                .map(row -> new BarChart.Bar(row.name(), value.applyAsDouble(row), row.name().equals(FLOOR)))
                .toList());
        }
        return BarChart.draw(title, valueFormat, titles, panels);
    }

    /**
     * Runs rows again, mostly allowed, one at a time, in rounds whose order alternates: each
     * round's ratios compare runs minutes apart at most, so drift of the machine over the whole
     * run, and any effect of running first, shows as spread, not as a gap.
     */
    private static List<Map<String, Row>> rounds(List<String> names, int threads) throws RunnerException {
        List<Map<String, Row>> rounds = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<String> order = new ArrayList<>(names);
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            Map<String, Row> rows = new LinkedHashMap<>();
            for (String name : order) {
                for (Row row : rows(run(options(ALL + name + "$").threads(threads).param("workload", "allowed")),
                        threads)) {
                    rows.put(row.name(), row);
                }
            }
            rounds.add(rows);
        }
        return rounds;
    }

    /** The targets at 64 threads: each annotated row's ratios to the floor of its round. */
    private static String rounds(List<Map<String, Row>> rounds) {
        StringBuilder out = new StringBuilder("Target rows again, 64 threads, mostly allowed, in " + rounds.size()
                + " rounds of alternating order; ratios to the floor (" + FLOOR + ") in the same round: median "
                + "(lowest, highest)\n\n"
                + "| row | throughput | p99 | Redis CPU per decision | Redis script time per decision "
                + "| added app CPU us |\n| --- | --- | --- | --- | --- | --- |\n");
        for (String name : TARGET_ROWS.subList(1, TARGET_ROWS.size())) {
            List<Double> throughput = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> redis = new ArrayList<>();
            List<Double> script = new ArrayList<>();
            List<Double> app = new ArrayList<>();
            for (Map<String, Row> round : rounds) {
                Row floor = round.get(FLOOR);
                Row row = round.get(name);
                throughput.add(row.perSecond() / floor.perSecond());
                p99.add(row.p99() / floor.p99());
                redis.add(row.redisCpu() / floor.redisCpu());
                script.add(row.redisScript() / floor.redisScript());
                app.add(row.appCpu() - floor.appCpu());
            }
            out.append("| ").append(name).append(" | ").append(spread(throughput, "%.2f", "x")).append(" | ")
                .append(spread(p99, "%.2f", "x")).append(" | ").append(spread(redis, "%.2f", "x")).append(" | ")
                .append(spread(script, "%.2f", "x")).append(" | ").append(spread(app, "%.2f", "")).append(" |\n");
        }
        return out.toString();
    }

    /** The target at 1 thread: coalescing on against off, in the same rounds. */
    private static String oneThread(List<Map<String, Row>> rounds) {
        List<Double> mean = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (Map<String, Row> round : rounds) {
            Row on = round.get(ONE_THREAD_ROWS.get(0));
            Row off = round.get(ONE_THREAD_ROWS.get(1));
            mean.add(off.perSecond() / on.perSecond());
            p50.add(on.p50() / off.p50());
            p99.add(on.p99() / off.p99());
        }
        return "One thread, mostly allowed, " + rounds.size() + " rounds of alternating order: latency of "
                + ONE_THREAD_ROWS.get(0) + " (coalescing on) over " + ONE_THREAD_ROWS.get(1)
                + " (off) in the same round: median (lowest, highest)\n\n| mean | p50 | p99 |\n| --- | --- | --- |\n| "
                + spread(mean, "%.3f", "x") + " | " + spread(p50, "%.3f", "x") + " | " + spread(p99, "%.3f", "x")
                + " |\n";
    }

    /** Each starter row against the hand-written script of the same algorithm, mostly allowed. */
    private static String sameAlgorithm(List<Row> rows) {
        StringBuilder out = new StringBuilder("Each algorithm against a hand-written script of the same algorithm, "
                + "mostly allowed: the starter's row over the script's\n\n"
                + "| row | hand-written | threads | throughput | Redis CPU per decision "
                + "| Redis script time per decision |\n| --- | --- | --- | --- | --- | --- |\n");
        for (int threads : new int[] { 1, 64 }) {
            for (List<String> pair : SAME_ALGORITHM) {
                Row row = find(rows, pair.get(0), threads);
                Row floor = find(rows, pair.get(1), threads);
                if (row == null || floor == null) {
                    continue;
                }
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2fx | %.2fx | %.2fx |%n", row.name(),
                        floor.name(), threads, row.perSecond() / floor.perSecond(), row.redisCpu() / floor.redisCpu(),
                        row.redisScript() / floor.redisScript()));
            }
        }
        return out.toString();
    }

    private static Row find(List<Row> rows, String name, int threads) {
        return rows.stream()
            .filter(row -> row.name().equals(name) && row.threads() == threads && row.workload().equals("allowed"))
            .findFirst()
            .orElse(null);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static ChainedOptionsBuilder options(String include) {
        return new OptionsBuilder().include(include)
            .forks(0)
            .warmupIterations(2)
            .warmupTime(TimeValue.seconds(2))
            .measurementIterations(2)
            .measurementTime(TimeValue.seconds(2))
            .addProfiler(CpuProfiler.class)
            .shouldFailOnError(true);
    }

    private static Collection<RunResult> run(ChainedOptionsBuilder options) throws RunnerException {
        return new Runner(options.build()).run();
    }

    private static List<Row> rows(Collection<RunResult> results, int threads) {
        List<Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            Statistics stats = result.getPrimaryResult().getStatistics();
            double meanMicros = stats.getMean();
            rows.add(new Row(name(result.getParams()), result.getParams().getParam("workload"), threads, threads * 1_000_000 / meanMicros,
                    stats.getPercentile(50), stats.getPercentile(99), secondary(result, CpuProfiler.APP),
                    secondary(result, CpuProfiler.REDIS), secondary(result, CpuProfiler.EVALSHA),
                    secondary(result, CpuProfiler.EVALSHA_PER_OP)));
        }
        return rows;
    }

    private static String table(List<Row> rows) {
        Map<String, Row> floors = floors(rows);
        StringBuilder out = new StringBuilder(
                "| benchmark | workload | threads | decisions/s | p50 us | p99 us | throughput vs floor "
                        + "| p99 vs floor | app CPU us | Redis CPU us | Redis us per EVALSHA "
                        + "| Redis script us per decision |\n"
                        + "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        sorted(rows).forEach(row -> {
            Row floor = floors.get(row.group());
            String ratios = (floor != null) ? String.format(Locale.ROOT, "%.2fx | %.2fx",
                    row.perSecond() / floor.perSecond(), row.p99() / floor.p99()) : " | ";
            String evalsha = Double.isNaN(row.redisEvalsha()) ? " | "
                    : String.format(Locale.ROOT, "%.2f | %.2f", row.redisEvalsha(), row.redisScript());
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %.1f | %.1f | %s | %.2f | %.2f | %s |%n",
                    row.name(), row.workload(), row.threads(), row.perSecond(), row.p50(), row.p99(), ratios,
                    row.appCpu(), row.redisCpu(), evalsha));
        });
        return out.toString();
    }

    /** The floor's row per workload and thread count. */
    private static Map<String, Row> floors(List<Row> rows) {
        Map<String, Row> floors = new TreeMap<>();
        rows.stream().filter(row -> row.name().equals(FLOOR)).forEach(row -> floors.put(row.group(), row));
        return floors;
    }

    /** By workload, then thread count, then decisions per second, most first. */
    private static List<Row> sorted(List<Row> rows) {
        return rows.stream()
            .sorted((a, b) -> a.group().equals(b.group()) ? Double.compare(b.perSecond(), a.perSecond())
                    : a.group().compareTo(b.group()))
            .toList();
    }

    private static String allocation(Collection<RunResult> results) {
        StringBuilder out = new StringBuilder(
                "| benchmark (1 thread, mostly allowed) | mean us | allocated bytes per call | app CPU us per call |\n"
                        + "| --- | --- | --- | --- |\n");
        for (RunResult result : results) {
            double alloc = secondary(result, "gc.alloc.rate.norm");
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %s | %.2f |%n", name(result.getParams()),
                    result.getPrimaryResult().getStatistics().getMean(),
                    Double.isNaN(alloc) ? "n/a" : String.format(Locale.ROOT, "%.0f", alloc),
                    secondary(result, CpuProfiler.APP)));
        }
        return out.toString();
    }

    /** The benchmark method's name, as the rows and {@link DecisionBenchmarks}' setup use it. */
    static String name(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    private static double secondary(RunResult result, String label) {
        Result<?> value = result.getSecondaryResults().get(label);
        return (value != null) ? value.getScore() : Double.NaN;
    }

    /**
     * A row of the table; CPU is per decision, in microseconds, of this JVM and of Redis; Redis's time
     * per EVALSHA, and in EVALSHA per decision (less when several decisions share one), is in
     * microseconds, NaN if the row ran none.
     */
    private record Row(String name, String workload, int threads, double perSecond, double p50, double p99,
            double appCpu, double redisCpu, double redisEvalsha, double redisScript) {

        String group() {
            return this.workload + "/" + String.format(Locale.ROOT, "%03d", this.threads);
        }

    }

}
