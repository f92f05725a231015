package io.github.limiter.redis;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Limit;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No script takes the caller's time: the arguments Redis receives, read back from its slow log,
 * are exactly the limit's settings, for every algorithm. Time comes from Redis's TIME, so
 * application servers with skewed clocks decide alike. A calendar limit's call carries the ends of
 * three calendar periods around the caller's time, which the script chooses among by Redis's.
 */
@WithRedis
class ClockIndependenceIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void theScriptReceivesOnlyTheLimitsSettings(Algorithm algorithm) {
        String prefix = "clock-" + UUID.randomUUID() + ":";
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, prefix, List.of()));
        Limit limit = Limit.of(7, Duration.ofSeconds(30)).withAlgorithm(algorithm).withAlertAt(3)
            .withBanFor(Duration.ofMinutes(2));
        List<String> args = argumentsOf(limiter, limit);
        if (algorithm == Algorithm.FIXED_WINDOW) {
            // the fast path's layout: the state key, then the shape, max, window, cost and tiers
            assertThat(args).containsExactly(prefix + "{clock:k}", "t", "7", "30000", "1", "3", "120000");
            return;
        }
        assertThat(args).containsExactly(prefix + "{clock:k}", prefix + "{clock:k}:ban", prefix + "{clock:k}:alert",
                "acquire", "1", Integer.toString(DecisionScript.code(algorithm)), "7", "30000", "1", "3", "120000", "0",
                "0", "0", "0");
    }

    @Test
    void aCalendarLimitsCallCarriesThreePeriodsAndRedisChoosesAmongThem() {
        String prefix = "clock-" + UUID.randomUUID() + ":";
        RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, prefix, List.of()));
        Limit limit = Limit.of(7, CalendarWindow.MONTH, ZoneId.of("Europe/Berlin"));
        long[] ends = CalendarPeriods.ends(limit, Instant.now());
        List<String> args = argumentsOf(limiter, limit);
        assertThat(args).containsExactly(prefix + "{clock:k}", prefix + "{clock:k}:ban", prefix + "{clock:k}:alert",
                "acquire", "1", "1", "7", Long.toString(limit.window().toMillis()), "1", "0", "0", "0",
                Long.toString(ends[0]), Long.toString(ends[1]), Long.toString(ends[2]));
    }

    /** The keys and arguments Redis receives for one call, read back from its slow log. */
    private static List<String> argumentsOf(RedisRateLimiter limiter, Limit limit) {
        return RedisServerExtension.redis().withCommands(commands -> {
            commands.configSet("slowlog-log-slower-than", "0");
            try {
                commands.slowlogReset();
                limiter.tryAcquire("clock", "k", limit);
                return lastEvalsha(commands.slowlogGet(20));
            }
            finally {
                commands.configSet("slowlog-log-slower-than", "10000");
            }
        });
    }

    /** The keys and arguments of the latest EVALSHA in the slow log (newest entries come first). */
    @SuppressWarnings("unchecked")
    private static List<String> lastEvalsha(List<Object> entries) {
        for (Object entry : entries) {
            List<Object> argv = (List<Object>) ((List<Object>) entry).get(3);
            if ("EVALSHA".equalsIgnoreCase(String.valueOf(argv.get(0)))) {
                return argv.subList(3, argv.size()).stream().map(String::valueOf).toList();
            }
        }
        throw new IllegalStateException("No EVALSHA in the slow log: " + entries);
    }

}
