package io.github.limiter.benchmarks;

import java.time.Duration;
import java.util.List;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.github.limiter.annotation.RateLimit;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP benchmark's application: five GET endpoints on Tomcat, each taking a {@code user}
 * parameter and answering {@code ok}, or 429 when refused. Every limit is a window of 60 s with a
 * max no user of the benchmark reaches, so every request is allowed and decided in Redis. The
 * {@code /limited} endpoint is limited by an annotation, {@code /rule} by the same limit as a URL
 * rule ({@link #RULE}): the two differ only in that.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(HttpBenchmarkApp.Endpoints.class)
class HttpBenchmarkApp {

    static final int MAX = 100_000_000;

    static final Duration WINDOW = Duration.ofSeconds(60);

    /**
     * The limit of {@code /limited}'s annotation as a URL rule of {@code limiter.web.rules} on
     * {@code /rule}: the same algorithm (the default fixed window), window and max, keyed by the same
     * {@code user} parameter, under a limit id as long as the annotation's.
     */
    static final List<String> RULE = List.of("--limiter.web.rules.rule.paths=/rule",
            "--limiter.web.rules.rule.key=#params['user']", "--limiter.web.rules.rule.window=60s",
            "--limiter.web.rules.rule.max=" + MAX);

    /**
     * Bucket4j on a connection of Boot's own Lettuce client, byte values as Bucket4j needs; the
     * client closes it when the connection factory shuts it down.
     */
    @Bean(destroyMethod = "")
    StatefulRedisConnection<String, byte[]> bucket4jConnection(LettuceConnectionFactory factory) {
        RedisClient client = (RedisClient) factory.getRequiredNativeClient();
        return client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
    }

    @Bean
    LettuceBasedProxyManager<String> bucket4j(StatefulRedisConnection<String, byte[]> bucket4jConnection) {
        return Bucket4jLettuce.casBasedBuilder(bucket4jConnection)
            .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(WINDOW))
            .build();
    }

    @RestController
    public static class Endpoints {

        /** The seeds' fixed window, written by hand ({@code seeds_counter.lua}). */
        private static final DefaultRedisScript<Long> SEEDS_COUNTER = new DefaultRedisScript<>();

        static {
            SEEDS_COUNTER.setLocation(new ClassPathResource("io/github/limiter/benchmarks/seeds_counter.lua"));
            SEEDS_COUNTER.setResultType(Long.class);
        }

        private static final BucketConfiguration BUCKET = BucketConfiguration.builder()
            .addLimit(limit -> limit.capacity(MAX).refillGreedy(MAX, WINDOW))
            .build();

        private final StringRedisTemplate template;

        private final LettuceBasedProxyManager<String> bucket4j;

        Endpoints(StringRedisTemplate template, LettuceBasedProxyManager<String> bucket4j) {
            this.template = template;
            this.bucket4j = bucket4j;
        }

        @GetMapping("/unlimited")
        public String unlimited(@RequestParam String user) {
            return "ok";
        }

        @GetMapping("/limited")
        @RateLimit(name = "http", key = "#user", window = "60s", max = MAX)
        public String limited(@RequestParam String user) {
            return "ok";
        }

        /** Limited by {@link HttpBenchmarkApp#RULE}, ahead of Spring MVC: otherwise {@code /unlimited}. */
        @GetMapping("/rule")
        public String rule(@RequestParam String user) {
            return "ok";
        }

        @GetMapping("/hand-written")
        public ResponseEntity<String> handWritten(@RequestParam String user) {
            Long allowed = this.template.execute(SEEDS_COUNTER, List.of("user:access:{" + user + "}"),
                    String.valueOf(WINDOW.toSeconds()), String.valueOf(MAX));
            return answer(allowed != null && allowed == 1);
        }

        @GetMapping("/bucket4j")
        public ResponseEntity<String> bucket4j(@RequestParam String user) {
            return answer(this.bucket4j.getProxy("bucket4j:" + user, () -> BUCKET).tryConsume(1));
        }

        private static ResponseEntity<String> answer(boolean allowed) {
            return allowed ? ResponseEntity.ok("ok") : ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("refused");
        }

    }

}
