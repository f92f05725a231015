package io.github.limiter.benchmarks;

import java.lang.management.ManagementFactory;
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
 * depend on how the threads were scheduled, so it compares rows run minutes apart.
 *
 * <p>The benchmarks run in this JVM ({@code forks(0)}), so the JVM's figure also holds JMH's own
 * work per operation, the same for every row.
 */
public final class CpuProfiler implements InternalProfiler {

    /** The JVM's CPU per operation, in microseconds. */
    static final String APP = "cpu.app";

    /** The Redis server's CPU per operation, in microseconds. */
    static final String REDIS = "cpu.redis";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long appNanos;

    private double redisSeconds;

    @Override
    public String getDescription() {
        return "CPU time per operation of this JVM and of the Redis server";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        this.redisSeconds = Redis.cpuSeconds();
        this.appNanos = this.os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        long appNanos = this.os.getProcessCpuTime() - this.appNanos;
        double redisSeconds = Redis.cpuSeconds() - this.redisSeconds;
        long ops = result.getMetadata().getAllOps();
        if (ops == 0) {
            return List.of();
        }
        return List.of(new ScalarResult(APP, appNanos / 1_000.0 / ops, "us/op", AggregationPolicy.AVG),
                new ScalarResult(REDIS, redisSeconds * 1_000_000 / ops, "us/op", AggregationPolicy.AVG));
    }

}
