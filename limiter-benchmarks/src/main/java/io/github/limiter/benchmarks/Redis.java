package io.github.limiter.benchmarks;

import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * The one Redis every benchmark of the run uses, started by {@link BenchmarkMain} before JMH runs
 * the benchmarks in the same JVM, and a connection of its own to read the server's CPU time.
 */
final class Redis {

    private static volatile EmbeddedRedis server;

    private static volatile RedisClient client;

    private static volatile StatefulRedisConnection<String, String> info;

    private Redis() {
    }

    /** Starts the run's Redis; {@link #stop()} ends it. */
    static void start() {
        server = EmbeddedRedis.start();
        client = RedisClient.create(RedisURI.create(server.host(), server.port()));
        info = client.connect();
    }

    static void stop() {
        info.close();
        client.shutdown();
        server.close();
    }

    static EmbeddedRedis server() {
        EmbeddedRedis redis = server;
        if (redis == null) {
            throw new IllegalStateException("Run the benchmarks with BenchmarkMain, which starts Redis");
        }
        return redis;
    }

    /** The CPU time the Redis server has used, user and system, in seconds. */
    static double cpuSeconds() {
        double seconds = 0;
        for (String line : info.sync().info("cpu").split("\r?\n")) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return seconds;
    }

}
