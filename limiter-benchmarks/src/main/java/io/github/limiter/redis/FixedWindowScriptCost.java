package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.limiter.Limit;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

/**
 * What the fixed window's script of its own saves Redis: the time in the script ({@code INFO
 * commandstats}) and Redis's CPU ({@code INFO cpu}) per decision, for the keys and arguments
 * {@link DecisionArguments} encodes, in the general layout ({@code decide.lua}, {@code batch.lua}) and
 * the fast path's ({@code fixed_window_fast.lua}, {@code batch_fast.lua}), alone and in coalesced
 * runs of 17 and 64 calls, alternating. In the benchmarks module, in the core's package for its package-private encoding; run by hand against a Redis on the given port
 * (docs/performance.md, "One fixed-window script, or two").
 */
public final class FixedWindowScriptCost {

    private FixedWindowScriptCost() {
    }

    public static void main(String[] args) throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + args[0]);
        StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
        RedisAsyncCommands<byte[], byte[]> redis = connection.async();
        Limit limit = Limit.of(100_000_000, Duration.ofMinutes(1));
        String[] shapes = { "general", "fast", "general", "fast", "general", "fast" };
        int[] runs = { 1, 17, 64 };
        for (int run : runs) {
            for (String shape : shapes) {
                measure(redis, limit, shape.equals("fast"), run, true);
                double[] result = measure(redis, limit, shape.equals("fast"), run, false);
                System.out.printf("calls per script call %2d  %-7s  %.2f us in the script, %.2f us CPU per decision%n",
                        run, shape, result[0], result[1]);
            }
        }
        connection.close();
        client.shutdown();
    }

    /** Returns script usec and CPU usec per decision. */
    static double[] measure(RedisAsyncCommands<byte[], byte[]> redis, Limit limit, boolean fast, int run,
            boolean warmup) throws Exception {
        int decisions = warmup ? 20_000 : 200_000;
        int keys = (run == 1) ? 100 : 10_000;
        String script = (run == 1) ? (fast ? DecisionScript.FIXED_WINDOW_FAST : DecisionScript.SCRIPT).getScriptAsString()
                : (fast ? DecisionScript.FIXED_WINDOW_FAST_BATCH : DecisionScript.BATCH).getScriptAsString();
        byte[] sha = redis.scriptLoad(script.getBytes(StandardCharsets.UTF_8)).get().getBytes(StandardCharsets.UTF_8);
        redis.configResetstat().get();
        double cpu0 = cpu(redis);
        List<RedisFuture<?>> inFlight = new ArrayList<>();
        int k = 0;
        for (int sent = 0; sent < decisions; sent += run) {
            List<byte[]> keyList = new ArrayList<>();
            List<byte[]> argList = new ArrayList<>();
            for (int i = 0; i < run; i++) {
                DecisionArguments call = new DecisionArguments(DecisionScript.ACQUIRE, 1);
                if (!fast) {
                    call.general();
                }
                call.add("limiter:{cost:user-" + (k++ % keys) + "}", limit, 1);
                byte[][] ka = call.keysAndArgs();
                for (int j = 0; j < ka.length; j++) {
                    (j < call.numKeys() ? keyList : argList).add(ka[j]);
                }
            }
            inFlight.add(redis.evalsha(new String(sha, StandardCharsets.UTF_8), ScriptOutputType.MULTI,
                    keyList.toArray(new byte[0][]), argList.toArray(new byte[0][])));
            if (inFlight.size() >= 64) {
                inFlight.get(0).get(10, TimeUnit.SECONDS);
                inFlight.remove(0);
            }
        }
        for (RedisFuture<?> f : inFlight) {
            f.get(10, TimeUnit.SECONDS);
        }
        double cpu = cpu(redis) - cpu0;
        String stats = redis.info("commandstats").get();
        double usec = 0;
        for (String line : stats.split("\r\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                usec = Double.parseDouble(line.replaceAll(".*usec=(\\d+),.*", "$1"));
            }
        }
        return new double[] { usec / decisions, cpu * 1e6 / decisions };
    }

    static double cpu(RedisAsyncCommands<byte[], byte[]> redis) throws Exception {
        String info = redis.info("cpu").get();
        double total = 0;
        for (String line : info.split("\r\n")) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                total += Double.parseDouble(line.substring(line.indexOf(':') + 1));
            }
        }
        return total;
    }

}
