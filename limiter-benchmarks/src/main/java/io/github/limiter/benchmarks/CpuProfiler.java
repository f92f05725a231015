package io.github.limiter.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation, on each side of the socket: this JVM's (the application: the limiter or
 * the client library, Lettuce's event loop, garbage collection) and the Redis server's, from its
 * {@code INFO cpu}. Unlike throughput on a busy 2-core machine, CPU spent per decision does not
 * depend on how the threads were scheduled, so it compares rows run minutes apart. Also Redis's own
 * time per EVALSHA, from {@code cmdstat_evalsha} of its {@code INFO commandstats}: what one script
 * call costs inside Redis, without reading and writing the socket; none for an iteration that ran
 * no EVALSHA.
 *
 * <p>The benchmarks run in this JVM ({@code forks(0)}), so the JVM's figure also holds JMH's own
 * work per operation, the same for every row.
 */
public final class CpuProfiler implements InternalProfiler {

    /** The JVM's CPU per operation, in microseconds. */
    static final String APP = "cpu.app";

    /** The Redis server's CPU per operation, in microseconds. */
    static final String REDIS = "cpu.redis";

    /** The Redis server's time per EVALSHA, in microseconds. */
    static final String EVALSHA = "redis.evalsha";

    /** The Redis server's time in EVALSHA per operation, in microseconds: less than per call when coalesced. */
    static final String EVALSHA_PER_OP = "redis.evalsha.per.op";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long appNanos;

    private double redisSeconds;

    private Redis.Calls evalsha;

    @Override
    public String getDescription() {
        return "CPU time per operation of this JVM and of the Redis server";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // in this order, and the reverse after: neither INFO falls inside another figure's interval
        this.evalsha = Redis.evalsha();
        this.redisSeconds = Redis.cpuSeconds();
        this.appNanos = this.os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        long appNanos = this.os.getProcessCpuTime() - this.appNanos;
        double redisSeconds = Redis.cpuSeconds() - this.redisSeconds;
        Redis.Calls evalsha = Redis.evalsha();
        long ops = result.getMetadata().getAllOps();
        if (ops == 0) {
            return List.of();
        }
        List<Result<?>> results = new ArrayList<>();
        results.add(new ScalarResult(APP, appNanos / 1_000.0 / ops, "us/op", AggregationPolicy.AVG));
        results.add(new ScalarResult(REDIS, redisSeconds * 1_000_000 / ops, "us/op", AggregationPolicy.AVG));
        long calls = evalsha.calls() - this.evalsha.calls();
        if (calls > 0) {
            results.add(new ScalarResult(EVALSHA, (double) (evalsha.micros() - this.evalsha.micros()) / calls,
                    "us/call", AggregationPolicy.AVG));
            results.add(new ScalarResult(EVALSHA_PER_OP, (double) (evalsha.micros() - this.evalsha.micros()) / ops,
                    "us/op", AggregationPolicy.AVG));
        }
        return results;
    }

}
