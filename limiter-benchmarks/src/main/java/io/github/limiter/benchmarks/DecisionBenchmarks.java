package io.github.limiter.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimiter;
import io.github.limiter.redis.RedisRateLimiter;
import io.github.limiter.test.EmbeddedRedis;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * One decision per operation, through each way of deciding, on the same Redis. Workloads: mostly
 * allowed (10,000 keys, high limits) and mostly rejected (4 hot keys far over a limit of one an
 * hour).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecisionBenchmarks {

    private static final int KEYS = 10_000;

    private static final int HOT_KEYS = 4;

    /** {@code allowed} or {@code rejected}. */
    @Param({ "allowed", "rejected" })
    public String workload;

    private ConfigurableApplicationContext withLocalCache;

    private ConfigurableApplicationContext withoutLocalCache;

    private ConfigurableApplicationContext inMemory;

    private ConfigurableApplicationContext uncoalesced;

    private Limited limitedUncoalesced;

    private Limited limited;

    private Limited limitedWithoutLocalCache;

    private Limited limitedInMemory;

    private RateLimiter rateLimiter;

    private Limit fixedWindow;

    private RedisClient client;

    private StatefulRedisConnection<String, String> connection;

    private String sha;

    private StringRedisTemplate template;

    private String prefix;

    private String[] keys;

    private String max;

    private long maxCount;

    private StatefulRedisConnection<String, byte[]> bucket4jConnection;

    private LettuceBasedProxyManager<String> bucket4j;

    private Supplier<BucketConfiguration> bucket4jConfiguration;

    private RedissonClient redisson;

    private RRateLimiter[] redissonLimiters;

    /** Starts only what the benchmark about to run uses, so that a row's setup costs no other row's. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        String benchmark = BenchmarkMain.name(params);
        EmbeddedRedis redis = Redis.server();
        this.prefix = "bench-" + UUID.randomUUID() + ":";
        boolean allowed = "allowed".equals(this.workload);
        this.keys = new String[allowed ? KEYS : HOT_KEYS];
        for (int i = 0; i < this.keys.length; i++) {
            this.keys[i] = "user-" + i;
        }
        this.max = allowed ? "100000000" : "1";
        long limit = Long.parseLong(this.max);
        this.maxCount = limit;
        switch (benchmark) {
            case "annotatedFixedWindowNoLocalCache", "naiveIncrThenExpire" -> {
                this.withoutLocalCache = app(BenchmarkApp.class, redis, this.prefix + "uncached:", "false");
                this.limitedWithoutLocalCache = this.withoutLocalCache.getBean(Limited.class);
                this.template = this.withoutLocalCache.getBean(StringRedisTemplate.class);
            }
            case "annotatedPathWithoutRedis" -> {
                this.inMemory = app(InMemoryApp.class, redis, this.prefix + "memory:", "false");
                this.limitedInMemory = this.inMemory.getBean(Limited.class);
            }
            case "handWrittenFixedWindow", "handWrittenSlidingLog", "handWrittenSlidingWindow",
                    "handWrittenTokenBucket", "handWrittenGcra", "rawLettuceEvalsha" -> {
                this.client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
                this.connection = this.client.connect();
                this.sha = this.connection.sync()
                    .scriptLoad(benchmark.equals("rawLettuceEvalsha") ? RedisRateLimiter.decisionScript()
                            : handWrittenScript(benchmark));
            }
            case "annotatedFixedWindowUncoalesced" -> {
                this.uncoalesced = app(BenchmarkApp.class, redis, this.prefix + "uncoalesced:", "true",
                        "--limiter.redis.coalescing.enabled=false");
                this.limitedUncoalesced = this.uncoalesced.getBean(Limited.class);
            }
            case "bucket4jLettuce" -> {
                this.client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
                this.bucket4jConnection = this.client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
                this.bucket4j = Bucket4jLettuce.casBasedBuilder(this.bucket4jConnection)
                    .expirationAfterWrite(
                            ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofHours(1)))
                    .build();
                BucketConfiguration configuration = BucketConfiguration.builder()
                    .addLimit(bandwidth -> bandwidth.capacity(limit).refillGreedy(limit, Duration.ofHours(1)))
                    .build();
                this.bucket4jConfiguration = () -> configuration;
            }
            case "redissonRateLimiter" -> {
                Config config = new Config();
                config.useSingleServer()
                    .setAddress("redis://" + redis.host() + ":" + redis.port())
                    .setConnectionPoolSize(64);
                this.redisson = Redisson.create(config);
                this.redissonLimiters = new RRateLimiter[this.keys.length];
                List<RFuture<Boolean>> rates = new ArrayList<>();
                for (int i = 0; i < this.keys.length; i++) {
                    this.redissonLimiters[i] = this.redisson.getRateLimiter(this.prefix + "redisson:" + this.keys[i]);
                    rates.add(this.redissonLimiters[i].trySetRateAsync(RateType.OVERALL, limit, Duration.ofHours(1)));
                }
                rates.forEach(rate -> rate.toCompletableFuture().join());
            }
            default -> {
                this.withLocalCache = app(BenchmarkApp.class, redis, this.prefix + "cached:", "true");
                this.limited = this.withLocalCache.getBean(Limited.class);
                this.rateLimiter = this.withLocalCache.getBean(RateLimiter.class);
                // what Limited's fixed window is: max per hour, no alert, no ban
                this.fixedWindow = Limit.of(limit, Duration.ofHours(1));
            }
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (this.redisson != null) {
            this.redisson.shutdown();
        }
        if (this.client != null) {
            // closes the client's connections too
            this.client.shutdown();
        }
        for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] { this.inMemory,
                this.withoutLocalCache, this.withLocalCache, this.uncoalesced }) {
            if (context != null) {
                context.close();
            }
        }
        this.redisson = null;
        this.client = null;
        this.inMemory = null;
        this.withoutLocalCache = null;
        this.withLocalCache = null;
        this.uncoalesced = null;
    }

    /**
     * The floor: the fixed window a user would write by hand ({@code hand_written_fixed_window.lua}:
     * INCR, PEXPIRE on the first call, PTTL) by EVALSHA over a plain Lettuce connection, the count
     * compared with max here.
     */
    @Benchmark
    public boolean handWrittenFixedWindow() {
        List<Long> reply = this.connection.sync()
            .evalsha(this.sha, ScriptOutputType.MULTI, new String[] { this.prefix + "hand:" + key() }, "3600000");
        return reply.get(0) <= this.maxCount;
    }

    /** A sliding log written by hand ({@code hand_written_sliding_log.lua}), by EVALSHA. */
    @Benchmark
    public Object handWrittenSlidingLog() {
        return handWritten("hand-log:");
    }

    /** A two-counter sliding window written by hand ({@code hand_written_sliding_window.lua}), by EVALSHA. */
    @Benchmark
    public Object handWrittenSlidingWindow() {
        return handWritten("hand-window:");
    }

    /** A token bucket written by hand ({@code hand_written_token_bucket.lua}), by EVALSHA. */
    @Benchmark
    public Object handWrittenTokenBucket() {
        return handWritten("hand-bucket:");
    }

    /** GCRA, the token bucket from one number per key, written by hand ({@code hand_written_gcra.lua}). */
    @Benchmark
    public Object handWrittenGcra() {
        return handWritten("hand-gcra:");
    }

    private Object handWritten(String kind) {
        return this.connection.sync()
            .evalsha(this.sha, ScriptOutputType.MULTI, new String[] { this.prefix + kind + key() }, "3600000", this.max);
    }

    /** The starter's own decision script for a fixed window, by EVALSHA over a plain Lettuce connection. */
    @Benchmark
    public Object rawLettuceEvalsha() {
        String state = this.prefix + "raw:{raw:" + key() + "}";
        RedisCommands<String, String> commands = this.connection.sync();
        return commands.evalsha(this.sha, ScriptOutputType.MULTI, new String[] { state, state + ":ban", state + ":alert" },
                // mode, limits; algorithm, max, window, cost, alert-at, ban, shadow, three calendar ends
                "acquire", "1", "1", this.max, "3600000", "1", "0", "0", "0", "0", "0", "0");
    }

    /** The starter through an annotated bean: proxy, SpEL key, template, script. */
    @Benchmark
    public boolean annotatedFixedWindow() {
        return call(allowed() ? this.limited::fixedAllowed : this.limited::fixedRejected);
    }

    /**
     * The limiter bean's non-blocking decision for the same fixed window, without the proxy,
     * waited for on the benchmark thread: the cost and latency of the path reactive code takes.
     */
    @Benchmark
    public boolean asyncFixedWindow() {
        return this.rateLimiter.tryAcquireAsync(allowed() ? "async-fixed-allowed" : "async-fixed-rejected", key(),
                this.fixedWindow)
            .toCompletableFuture()
            .join()
            .allowed();
    }

    /**
     * The same annotated fixed window returning a {@code Mono}, decided when subscribed, blocked
     * for. A refusal is the error signal, turned into {@code false} before {@code block()}:
     * {@code block()} would add an exception with a stack trace of its own to each refusal, which
     * is the benchmark's cost, not the limiter's.
     */
    @Benchmark
    public boolean annotatedMonoFixedWindow() {
        String key = key();
        Mono<String> call = allowed() ? this.limited.monoFixedAllowed(key) : this.limited.monoFixedRejected(key);
        return Boolean.TRUE.equals(call.map(result -> true)
            .onErrorReturn(RateLimitExceededException.class, false)
            .block());
    }

    /** The same returning a {@code CompletableFuture}, decided without blocking, joined. */
    @Benchmark
    public boolean annotatedCompletableFutureFixedWindow() {
        String key = key();
        try {
            (allowed() ? this.limited.futureFixedAllowed(key) : this.limited.futureFixedRejected(key)).join();
            return true;
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof RateLimitExceededException) {
                return false;
            }
            throw ex;
        }
    }

    /** The annotated fixed window with alert and ban tiers (never reached when mostly allowed). */
    @Benchmark
    public boolean annotatedFixedWindowTiers() {
        return call(allowed() ? this.limited::tieredAllowed : this.limited::tieredRejected);
    }

    /** The annotated fixed window with coalescing off: every decision is a script call of its own. */
    @Benchmark
    public boolean annotatedFixedWindowUncoalesced() {
        return call(allowed() ? this.limitedUncoalesced::fixedAllowed : this.limitedUncoalesced::fixedRejected);
    }

    @Benchmark
    public boolean annotatedSlidingLog() {
        return call(allowed() ? this.limited::logAllowed : this.limited::logRejected);
    }

    @Benchmark
    public boolean annotatedSlidingWindow() {
        return call(allowed() ? this.limited::windowAllowed : this.limited::windowRejected);
    }

    @Benchmark
    public boolean annotatedTokenBucket() {
        return call(allowed() ? this.limited::bucketAllowed : this.limited::bucketRejected);
    }

    /** The same, with every call asking Redis: no refusals from memory. */
    @Benchmark
    public boolean annotatedFixedWindowNoLocalCache() {
        return call(allowed() ? this.limitedWithoutLocalCache::fixedAllowed
                : this.limitedWithoutLocalCache::fixedRejected);
    }

    /** Bucket4j's Lettuce proxy manager (compare-and-swap), a bucket of max refilled per hour. */
    @Benchmark
    public boolean bucket4jLettuce() {
        return this.bucket4j.getProxy(this.prefix + "bucket4j:" + key(), this.bucket4jConfiguration).tryConsume(1);
    }

    /** Redisson's RRateLimiter, max per hour. */
    @Benchmark
    public boolean redissonRateLimiter() {
        return this.redissonLimiters[ThreadLocalRandom.current().nextInt(this.redissonLimiters.length)].tryAcquire();
    }

    /** The naive way: INCR, then EXPIRE, two round trips, not atomic. */
    @Benchmark
    public boolean naiveIncrThenExpire() {
        String key = this.prefix + "naive:" + key();
        Long count = this.template.opsForValue().increment(key);
        this.template.expire(key, Duration.ofHours(1));
        return count != null && count <= Long.parseLong(this.max);
    }

    /** The annotated path with a limiter that decides in memory: the CPU cost outside Redis. */
    @Benchmark
    public boolean annotatedPathWithoutRedis() {
        return call(this.limitedInMemory::fixedAllowed);
    }

    private boolean call(Consumer<String> method) {
        try {
            method.accept(key());
            return true;
        }
        catch (RateLimitExceededException ex) {
            return false;
        }
    }

    private boolean allowed() {
        return this.keys.length == KEYS;
    }

    private String key() {
        return this.keys[ThreadLocalRandom.current().nextInt(this.keys.length)];
    }

    /** The script of a hand-written row: handWrittenSlidingLog runs hand_written_sliding_log.lua. */
    private static String handWrittenScript(String benchmark) {
        String file = benchmark.replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT) + ".lua";
        try (InputStream in = DecisionBenchmarks.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException(file + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static ConfigurableApplicationContext app(Class<?> type, EmbeddedRedis redis, String prefix,
            String localCache, String... more) {
        SpringApplication application = new SpringApplication(type);
        application.setWebApplicationType(WebApplicationType.NONE);
        List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--limiter.key-prefix=" + prefix, "--limiter.local-cache.enabled=" + localCache,
                "--logging.level.root=WARN"));
        args.addAll(List.of(more));
        return application.run(args.toArray(String[]::new));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Limited.class)
    static class BenchmarkApp {

    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Limited.class)
    static class InMemoryApp {

        /** Allows everything, at once: what is left is the aspect, the SpEL key and the decision objects. */
        @Bean
        RateLimiter inMemoryRateLimiter() {
            return new RateLimiter() {

                @Override
                public Decision tryAcquire(List<LimitRequest> requests) {
                    LimitRequest request = requests.get(0);
                    return Decision.allow(request.limitId(), request.key(), request.limit().max(), 1,
                            request.limit().window());
                }

            };
        }

    }

}
