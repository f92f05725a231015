package io.github.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wire format the Java side declares against what decide.lua's header comment documents, so
 * that neither can change without the other.
 */
class DecisionScriptTests {

    private static final Map<String, Integer> WORDS = Map.of("two", 2, "three", 3, "six", 6, "seven", 7, "nine", 9, "ten", 10);

    private final String header = header();

    @Test
    void keysPerLimitAreWhatTheScriptDocuments() {
        assertThat(number("KEYS\\s+(\\w+) per limit")).isEqualTo(DecisionScript.KEYS_PER_LIMIT);
    }

    @Test
    void argumentsPerLimitAreWhatTheScriptDocuments() {
        assertThat(number("then (\\w+) values per limit")).isEqualTo(DecisionScript.ARGS_PER_LIMIT);
        assertThat(this.header).contains("ARGV[1] 'acquire'", "ARGV[2] n, the number of limits");
        assertThat(DecisionScript.LEADING_ARGS).isEqualTo(2);
        assertThat(number("it takes (\\w+) values per limit of its own")).isEqualTo(DecisionScript.SETTLE_ARGS_PER_LIMIT);
        assertThat(new DecisionArguments(DecisionScript.SETTLE, 2)
            .addSettlement("{s:a}", Limit.of(10, Duration.ofMinutes(1)), -1, 500, 20, "c")
            .addSettlement("{s:b}", Limit.of(10, Duration.ofMinutes(1)), 2, 500, 20, "")
            .keysAndArgs().length).isEqualTo(2 * DecisionScript.KEYS_PER_LIMIT + DecisionScript.LEADING_ARGS
                    + 2 * DecisionScript.SETTLE_ARGS_PER_LIMIT);
    }

    @Test
    void replyValuesPerLimitAreWhatTheScriptDocuments() {
        assertThat(number("Reply for 'acquire': (\\w+) integers per limit")).isEqualTo(DecisionScript.REPLY_PER_LIMIT);
        assertThat(number("Reply for 'peek': (\\w+) integers per limit"))
            .isEqualTo(DecisionScript.PEEK_REPLY_PER_LIMIT);
        assertThat(number("Reply for 'settle': (\\w+) integers per limit"))
            .isEqualTo(DecisionScript.SETTLE_REPLY_PER_LIMIT);
        assertThat(new DecisionArguments(DecisionScript.SETTLE, 2).replySize()).isEqualTo(6);
    }

    @Test
    void algorithmCodesAreWhatTheScriptDocumentsAndRegisters() {
        String scripts = DecisionScript.SCRIPT.getScriptAsString();
        for (Algorithm algorithm : Algorithm.values()) {
            int code = DecisionScript.code(algorithm);
            String words = algorithm.name().toLowerCase().replace('_', ' ');
            assertThat(this.header).contains(code + " " + words);
            assertThat(scripts).contains("ALGORITHMS[" + code + "] = {");
        }
    }

    @Test
    void outcomeCodesAreWhatTheScriptDocuments() {
        assertThat(this.header).contains(DecisionScript.ALLOWED + " allowed", DecisionScript.REJECTED + " rejected",
                DecisionScript.BANNED + " banned", DecisionScript.ALLOWED_BUT_CALL_REJECTED + " allowed by this limit");
    }

    @Test
    void modesAreWhatTheScriptDocuments() {
        for (byte[] mode : new byte[][] { DecisionScript.ACQUIRE, DecisionScript.CHECK, DecisionScript.PEEK,
                DecisionScript.SETTLE }) {
            assertThat(this.header).contains("'" + new String(mode, StandardCharsets.UTF_8) + "'");
        }
    }

    @Test
    void aCallHasRoomForEveryKeyAndArgument() {
        DecisionArguments call = new DecisionArguments(DecisionScript.ACQUIRE, 2);
        call.add("p:{a:k}", Limit.of(5, Duration.ofSeconds(1)), 1);
        call.add("p:{b:k}", Limit.of(5, Duration.ofSeconds(1)), 1);
        assertThat(call.keysAndArgs().length).isEqualTo(2 * (3 + 10) + 2);
        assertThat(List.of(call.keysAndArgs())).doesNotContainNull();
        assertThat(call.numKeys()).isEqualTo(6);
        assertThat(call.replySize()).isEqualTo(12);
        assertThat(new DecisionArguments(DecisionScript.PEEK, 2).replySize()).isEqualTo(6);
    }

    @Test
    void theFastPathsLayoutIsWhatItsScriptDocuments() {
        String fast = header("fixed_window_fast.lua");
        assertThat(fast).contains("KEYS one: the state key",
                "'f' (no alert, no ban), max, window in ms, cost: four values",
                "'t' (with alert or ban), max, window in ms, cost, alert-at, ban in ms: six values");
        assertThat(DecisionScript.FAST_KEYS).isEqualTo(1);
        assertThat(DecisionScript.FAST_ARGS).isEqualTo(4);
        assertThat(DecisionScript.TIERED_FAST_ARGS).isEqualTo(6);
        assertThat(new String(DecisionScript.FAST, StandardCharsets.UTF_8)).isEqualTo("f");
        assertThat(new String(DecisionScript.TIERED_FAST, StandardCharsets.UTF_8)).isEqualTo("t");
        DecisionArguments tierless = new DecisionArguments(DecisionScript.ACQUIRE, 1).add("p:{a:k}",
                Limit.of(5, Duration.ofSeconds(1)), 1);
        assertThat(tierless.numKeys()).isEqualTo(DecisionScript.FAST_KEYS);
        assertThat(tierless.keysAndArgs().length).isEqualTo(DecisionScript.FAST_KEYS + DecisionScript.FAST_ARGS);
        DecisionArguments tiered = new DecisionArguments(DecisionScript.ACQUIRE, 1).add("p:{a:k}",
                Limit.of(5, Duration.ofSeconds(1)).withAlertAt(2), 1);
        assertThat(tiered.keysAndArgs().length).isEqualTo(DecisionScript.FAST_KEYS + DecisionScript.TIERED_FAST_ARGS);
    }

    @Test
    void theFastPathsPackedReplyUnpacksToTheGeneralOne() {
        // count 7, reset 900 ms, banned for 600,000 ms, the ban started by this call
        assertThat(DecisionReply.numbers(List.of(7L, 900L, 600_000L * 16 + DecisionScript.BANNED + 8), 3, true))
            .containsExactly((long) DecisionScript.BANNED, 7L, 900L, 600_000L, 0L, 1L);
        // allowed, raising the alert
        assertThat(DecisionReply.numbers(List.of(3L, 59_000L, (long) DecisionScript.ALLOWED + 4), 3, true))
            .containsExactly((long) DecisionScript.ALLOWED, 3L, 59_000L, 0L, 1L, 0L);
        assertThat(DecisionReply.numbers(List.of(5L, 1_000L, 1_000L * 16 + DecisionScript.REJECTED), 3, true))
            .containsExactly((long) DecisionScript.REJECTED, 5L, 1_000L, 1_000L, 0L, 0L);
        assertThat(header("fixed_window_fast.lua")).contains(
                "retry * 16 + outcome + alert * 4 + ban_started * 8");
    }

    @Test
    void theBanMarkIsAboveEveryFixedWindowCount() {
        // what the test support reads counts with (FixedWindows) and what LimitChecks bounds max by
        assertThat(DecisionScript.SCRIPT.getScriptAsString()).contains("local BAN_MARK = " + (1L << 51) + "\n");
        assertThat(2 * Limit.of(1L << 49, Duration.ofDays(1)).max()).isLessThan(1L << 51);
    }

    private int number(String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(this.header);
        assertThat(matcher.find()).as("decide.lua's header says %s", regex).isTrue();
        Integer value = WORDS.get(matcher.group(1));
        assertThat(value).as("a number word: %s", matcher.group(1)).isNotNull();
        return value;
    }

    private static String header() {
        return header("decide.lua");
    }

    private static String header(String script) {
        try (InputStream in = DecisionScriptTests.class.getClassLoader()
            .getResourceAsStream("META-INF/limiter/scripts/" + script)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            StringBuilder header = new StringBuilder();
            for (String line : text.split("\n")) {
                if (!line.startsWith("--")) {
                    break;
                }
                header.append(line.substring(2).strip()).append('\n');
            }
            return header.toString().replaceAll("\\s+", " ");
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

}
