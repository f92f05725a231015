package io.github.limiter.events;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An attacker who rotates keys does not drive the log: many keys alerted and banned in a short time
 * give the configured lines and one line counting the rest when the interval ends, while the
 * events and the meters count every alert and ban.
 */
@ExtendWith(OutputCaptureExtension.class)
class EventLogIntegrationTests {

    private static final Pattern LEFT_OUT = Pattern.compile("Rate limiting left (\\d+) alert and ban lines? out of the log");

    private final String prefix = "event-log-" + UUID.randomUUID() + ":";

    @Test
    void manyKeysBannedQuicklyWriteTheFirstLinesAndOneCountWhileEventsAndMetersCountEveryOne(CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                Node node = Node.start(redis.host(), redis.port(), this.prefix, "limiter.event-log.max-lines=5",
                        "limiter.event-log.interval=2s")) {
            int keys = 60;
            for (int i = 0; i < keys; i++) {
                // the second call raises the key's alert, the third starts its ban
                for (int call = 0; call < 3; call++) {
                    assertThat(node.call("attacker-" + i)).isNotNull();
                }
            }
            // the count is written when the interval ends (on a slow machine the calls may span two)
            assertThat(Node.await(Duration.ofSeconds(10), () -> eventLines(output).size()
                    + leftOut(output).stream().mapToInt(Integer::intValue).sum() == 2 * keys))
                .as("every alert and ban written or counted: " + eventLines(output).size() + " written, "
                        + leftOut(output) + " counted")
                .isTrue();
            List<Integer> counts = leftOut(output);
            assertThat(eventLines(output)).as("lines for " + 2 * keys + " alerts and bans")
                .hasSizeLessThanOrEqualTo(5 * Math.max(1, counts.size()));
            assertThat(counts).as("lines counting the rest, one per interval").hasSizeBetween(1, 2);
            assertThat(node.events().alerts()).hasSize(keys).allSatisfy((key, count) -> assertThat(count).isOne());
            assertThat(node.events().bans()).hasSize(keys).allSatisfy((key, count) -> assertThat(count).isOne());
            assertThat(node.counted("limiter.alerts")).isEqualTo(keys);
            assertThat(node.counted("limiter.bans")).isEqualTo(keys);
        }
    }

    private static List<String> eventLines(CapturedOutput output) {
        return output.getOut().lines().filter(line -> line.contains("Rate limit 'probe'")).toList();
    }

    private static List<Integer> leftOut(CapturedOutput output) {
        return output.getOut().lines().map(LEFT_OUT::matcher).filter(Matcher::find)
            .map(matcher -> Integer.parseInt(matcher.group(1))).toList();
    }

}
