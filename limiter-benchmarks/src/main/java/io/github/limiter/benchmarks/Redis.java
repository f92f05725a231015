package io.github.limiter.benchmarks;

import io.github.limiter.test.EmbeddedRedis;

/**
 * The one Redis every benchmark of the run uses, started by {@link BenchmarkMain} before JMH runs
 * the benchmarks in the same JVM.
 */
final class Redis {

    static volatile EmbeddedRedis server;

    private Redis() {
    }

    static EmbeddedRedis server() {
        EmbeddedRedis redis = server;
        if (redis == null) {
            throw new IllegalStateException("Run the benchmarks with BenchmarkMain, which starts Redis");
        }
        return redis;
    }

}
