package io.github.limiter.redis;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.LimitRequest;
import io.github.limiter.test.Closer;
import io.github.limiter.test.RedisClock;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Calendar limits on a real Redis, whose clock decides: a day that ends a few seconds into the test
 * (in a zone chosen from Redis's clock so that its midnight comes then) resets at its end, refused
 * calls are told to retry there, and the count's key lives no longer.
 */
@WithRedis
class CalendarLimitsIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @AutoClose
    private final Closer closing = new Closer();

    private final String prefix = "calendar-" + UUID.randomUUID() + ":";

    private final RedisRateLimiter limiter = this.closing.add(Limiters.of(redis, this.prefix, List.of()));

    @Test
    void theCountStartsAgainWhenTheDayEndsAndRefusedCallsAreToldToRetryThen() {
        // a zone whose midnight is 3 to 4 seconds away on Redis's clock
        RedisClock.DayEnd dayEnd = RedisClock.dayEndingIn(redis, Duration.ofSeconds(3));
        long end = dayEnd.epochMillis();
        ZoneOffset zone = dayEnd.zone();
        assertThat(CalendarWindow.DAY.end(Instant.ofEpochMilli(redisMillis()), zone))
            .isEqualTo(Instant.ofEpochMilli(end));
        Limit threeADay = Limit.of(3, CalendarWindow.DAY, zone);
        for (int call = 1; call <= 3; call++) {
            assertThat(this.limiter.tryAcquire("daily", "alice", threeADay).allowed()).isTrue();
        }
        long before = redisMillis();
        Decision refused = this.limiter.tryAcquire("daily", "alice", threeADay);
        long after = redisMillis();
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.count()).isEqualTo(3);
        assertThat(refused.retryAfter().toMillis()).as("retry at the day's end").isBetween(end - after, end - before);
        assertThat(refused.resetAfter()).isEqualTo(refused.retryAfter());
        Long ttl = redis.getExpire(this.prefix + "{daily:alice}", TimeUnit.MILLISECONDS);
        assertThat(ttl).as("the count lives until the day's end, no longer").isPositive()
            .isLessThanOrEqualTo(end - before);

        RedisClock.await(redis, end, Duration.ofSeconds(15));
        Decision nextDay = this.limiter.tryAcquire("daily", "alice", threeADay);
        assertThat(nextDay.allowed()).isTrue();
        assertThat(nextDay.count()).as("counted afresh in the new day").isEqualTo(1);
        long dayAfter = end + Duration.ofDays(1).toMillis();
        assertThat(nextDay.resetAfter().toMillis()).isLessThanOrEqualTo(dayAfter - end)
            .isGreaterThan(dayAfter - end - 5_000);
        assertThat(redis.getExpire(this.prefix + "{daily:alice}", TimeUnit.MILLISECONDS))
            .isPositive()
            .isLessThanOrEqualTo(dayAfter - end);
    }

    @Test
    void aYearEndsAtTheZonesNewYearWhicheverOffsetItHasThen() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        long before = redisMillis();
        Decision decision = this.limiter.tryAcquire("yearly", "alice", Limit.of(5, CalendarWindow.YEAR, berlin));
        long after = redisMillis();
        int year = ZonedDateTime.ofInstant(Instant.ofEpochMilli(before), berlin).getYear();
        // midnight of January 1st in Berlin is at 23:00 UTC the day before, in winter time
        long newYear = LocalDate.of(year + 1, 1, 1).atStartOfDay(berlin).toInstant().toEpochMilli();
        assertThat(decision.resetAfter().toMillis()).isBetween(newYear - after, newYear - before);
    }

    @Test
    void aCalendarLimitAmongOthersIsDecidedOnTheGeneralPath() {
        Limit tenAMonth = Limit.of(10, CalendarWindow.MONTH, ZoneId.of("Asia/Tokyo"));
        Limit twoAMinute = Limit.of(2, Duration.ofMinutes(1))
            .withAlgorithm(io.github.limiter.Algorithm.SLIDING_LOG);
        List<LimitRequest> both = List.of(LimitRequest.of("monthly", "bob", tenAMonth),
                LimitRequest.of("burst", "bob", twoAMinute));
        assertThat(this.limiter.tryAcquire(both).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire(both).allowed()).isTrue();
        assertThat(this.limiter.tryAcquire(both).allowed()).as("refused by the burst limit").isFalse();
        assertThat(this.limiter.state("monthly", "bob", tenAMonth).count()).as("the refused call counted nowhere")
            .isEqualTo(2);
        long before = redisMillis();
        Instant monthEnd = CalendarWindow.MONTH.end(Instant.ofEpochMilli(before), ZoneId.of("Asia/Tokyo"));
        assertThat(this.limiter.state("monthly", "bob", tenAMonth).resetAfter().toMillis())
            .isLessThanOrEqualTo(monthEnd.toEpochMilli() - before)
            .isGreaterThan(monthEnd.toEpochMilli() - before - 5_000);
    }

    @Test
    void callsDecidedWithoutBlockingOnTheCoalescingPathCountInTheirWeek() {
        Limit threeAWeek = Limit.of(3, CalendarWindow.WEEK, ZoneId.of("America/New_York"));
        long before = redisMillis();
        List<CompletableFuture<Decision>> calls = new ArrayList<>();
        for (int call = 0; call < 5; call++) {
            calls.add(this.limiter.tryAcquireAsync(List.of(LimitRequest.of("weekly", "carol", threeAWeek)))
                .toCompletableFuture());
        }
        List<Decision> decisions = calls.stream().map(CompletableFuture::join).toList();
        assertThat(decisions).filteredOn(Decision::allowed).hasSize(3);
        long weekEnd = CalendarWindow.WEEK.end(Instant.ofEpochMilli(before), ZoneId.of("America/New_York"))
            .toEpochMilli();
        assertThat(decisions).filteredOn((decision) -> !decision.allowed())
            .hasSize(2)
            .allSatisfy((refused) -> assertThat(refused.retryAfter().toMillis())
                .isLessThanOrEqualTo(weekEnd - before)
                .isGreaterThan(weekEnd - before - 5_000));
    }

    @Test
    void redissClockChoosesAmongThePeriodsTheApplicationSent() {
        long now = redisMillis();
        // an application clock a period behind: Redis's time is in the last of the three periods
        List<Long> behind = decide("behind", now - 20_000, now - 10_000, now + 30_000);
        assertThat(behind.get(0)).as("allowed").isZero();
        assertThat(behind.get(2)).as("the reset counts to the third period's end")
            .isBetween(30_000L - 5_000, 30_000L);
        assertThat(redis.opsForHash().keys(this.prefix + "{behind:k}")).containsExactly(Long.toString(now + 30_000));
        // an application clock ahead: Redis's time is still in the first
        List<Long> ahead = decide("ahead", now + 30_000, now + 60_000, now + 90_000);
        assertThat(ahead.get(2)).isBetween(30_000L - 5_000, 30_000L);
        assertThat(redis.getExpire(this.prefix + "{ahead:k}", TimeUnit.MILLISECONDS)).isBetween(1L, 30_000L);
    }

    @Test
    void anApplicationClockMoreThanAPeriodBehindFailsTheCall() {
        long now = redisMillis();
        assertThatExceptionOfType(RedisSystemException.class)
            .isThrownBy(() -> decide("far", now - 30_000, now - 20_000, now - 10_000))
            .withStackTraceContaining("is past the calendar periods sent");
        assertThat(redis.hasKey(this.prefix + "{far:k}")).isFalse();
    }

    /** One acquire of a calendar limit of 5, its three period ends given as an application would send them. */
    private List<Long> decide(String limitId, long first, long second, long third) {
        List<String> keys = RedisKeys.of(this.prefix, limitId, "k", false);
        return redis.execute(DecisionScript.SCRIPT, keys, "acquire", "1", "1", "5", "86400000", "1", "0", "0", "0",
                Long.toString(first), Long.toString(second), Long.toString(third));
    }

    private static long redisMillis() {
        return RedisClock.millis(redis);
    }

}
