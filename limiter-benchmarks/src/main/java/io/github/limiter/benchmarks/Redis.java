package io.github.limiter.benchmarks;

import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * The one Redis every benchmark of the run uses, started by {@link BenchmarkMain} before JMH runs
 * the benchmarks in the same JVM, and a connection of its own to read the server's CPU time and
 * command statistics.
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

    /**
     * The EVALSHA calls the Redis server has run, and the time it spent in them, scripts included,
     * from {@code cmdstat_evalsha} of its {@code INFO commandstats}; zero before the first.
     */
    static Calls evalsha() {
        return calls("evalsha");
    }

    /** The calls of one command, such as {@code eval}, and the time Redis spent in them; zero before the first. */
    static Calls calls(String command) {
        for (String line : info.sync().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                long calls = 0;
                long micros = 0;
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    String value = field.substring(field.indexOf('=') + 1).trim();
                    if (field.startsWith("calls=")) {
                        calls = Long.parseLong(value);
                    }
                    else if (field.startsWith("usec=")) {
                        micros = Long.parseLong(value);
                    }
                }
                return new Calls(calls, micros);
            }
        }
        return new Calls(0, 0);
    }

    /** A count of calls of one command and the microseconds Redis spent in them. */
    record Calls(long calls, long micros) {

    }

}
