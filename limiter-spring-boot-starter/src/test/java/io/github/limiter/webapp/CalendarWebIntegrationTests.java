package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.UUID;

import io.github.limiter.CalendarWindow;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisClock;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A calendar quota over HTTP: a policy of {@code application.yml}'s shape ({@code calendar: month},
 * {@code zone: Europe/Berlin}) refuses the call past its max with {@code Retry-After} and the
 * {@code RateLimit} headers counting to the next month's start in Berlin; a day chosen to end
 * seconds into the test lets calls through again when it ends.
 */
@WithRedis
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = CalendarWebIntegrationTests.WebApp.class,
        properties = { "limiter.policies.monthly.calendar=month", "limiter.policies.monthly.zone=Europe/Berlin",
                "limiter.policies.monthly.max=2", "management.endpoints.web.exposure.include=ratelimits" })
class CalendarWebIntegrationTests {

    private static final String PREFIX = "calendar-web-" + UUID.randomUUID() + ":";

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private RateLimitsEndpoint endpoint;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServerExtension.registerProperties(registry, PREFIX);
    }

    @Test
    void aRefusedCallIsToldToRetryWhenTheMonthStartsInItsZone() {
        assertThat(get("/monthly?apiKey=k1").statusCode()).isEqualTo(200);
        assertThat(get("/monthly?apiKey=k1").statusCode()).isEqualTo(200);
        long before = RedisClock.millis(redis);
        HttpResponse<String> refused = get("/monthly?apiKey=k1");
        long after = RedisClock.millis(redis);
        assertThat(refused.statusCode()).isEqualTo(429);
        long monthEnd = CalendarWindow.MONTH.end(Instant.ofEpochMilli(before), ZoneId.of("Europe/Berlin"))
            .toEpochMilli();
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(seconds(monthEnd - after), seconds(monthEnd - before));
        assertThat(refused.headers().firstValue("RateLimit")).hasValue("\"monthly\";r=0;t=" + retryAfter);
        assertThat(refused.headers().firstValue("X-RateLimit-Reset")).hasValue(Long.toString(retryAfter));
        long monthLength = CalendarWindow.MONTH.end(Instant.ofEpochMilli(before), ZoneId.of("Europe/Berlin"))
            .getEpochSecond()
                - CalendarWindow.MONTH.start(Instant.ofEpochMilli(before), ZoneId.of("Europe/Berlin")).getEpochSecond();
        assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"monthly\";q=2;w=" + monthLength);
    }

    @Test
    void callsPassAgainWhenTheDayOfTheirZoneEnds() {
        RedisClock.DayEnd dayEnd = RedisClock.dayEndingIn(redis, Duration.ofSeconds(3));
        String path = "/daily?apiKey=k2&zone=" + dayEnd.zone().getId().replace("+", "%2B");
        assertThat(get(path).statusCode()).isEqualTo(200);
        long before = RedisClock.millis(redis);
        HttpResponse<String> refused = get(path);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
            .as("the seconds left of the day, rounded up")
            .isBetween(1L, seconds(dayEnd.epochMillis() - before));
        RedisClock.await(redis, dayEnd.epochMillis(), Duration.ofSeconds(15));
        HttpResponse<String> nextDay = get(path);
        assertThat(nextDay.statusCode()).isEqualTo(200);
        assertThat(nextDay.headers().firstValue("RateLimit")).hasValueSatisfying(
                (header) -> assertThat(header).startsWith("\"daily\";r=0;t="));
    }

    @Test
    void theEndpointShowsTheCalendarAndTheZone() {
        RateLimitsEndpoint.Report report = this.endpoint.limits();
        assertThat(report.limits()).filteredOn((limit) -> limit.limitId().equals("monthly"))
            .singleElement()
            .satisfies((limit) -> {
                assertThat(limit.calendar()).isEqualTo("MONTH");
                assertThat(limit.zone()).isEqualTo("Europe/Berlin");
                assertThat(limit.algorithm()).isEqualTo("FIXED_WINDOW");
            });
        assertThat(report.limits()).filteredOn((limit) -> limit.limitId().equals("daily"))
            .singleElement()
            .satisfies((limit) -> assertThat(limit.calendar()).isEqualTo("DAY"));
        assertThat(report.policies().get("monthly")).satisfies((policy) -> {
            assertThat(policy.calendar()).isEqualTo("MONTH");
            assertThat(policy.zone()).isEqualTo("Europe/Berlin");
            assertThat(policy.window()).isNull();
        });
    }

    private static long seconds(long millis) {
        return (millis + 999) / 1000;
    }

    private HttpResponse<String> get(String path) {
        return new LocalHttp(this.port).get(path);
    }

    @SpringBootApplication
    @Import(QuotaController.class)
    static class WebApp {

    }

    @RestController
    static class QuotaController {

        @GetMapping("/monthly")
        @RateLimit(name = "monthly", key = "#apiKey", policy = "monthly")
        public String monthly(@RequestParam String apiKey) {
            return "ok";
        }

        @GetMapping("/daily")
        @RateLimit(name = "daily", key = "#apiKey", max = 1, calendar = CalendarWindow.DAY, zone = "#zone")
        public String daily(@RequestParam String apiKey, @RequestParam String zone) {
            return "ok";
        }

    }

}
