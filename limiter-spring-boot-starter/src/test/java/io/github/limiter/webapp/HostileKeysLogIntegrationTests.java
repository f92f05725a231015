package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystemProperty;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys a client sends in a JSON body, as an operator meets them in the log: a key that holds a
 * whole forged log line, terminal escapes, or a megabyte; with Spring Boot's default console format
 * and with structured logging. No key starts a line, colours a terminal or makes a long line, and
 * keys that UTF-8 cannot tell apart are still counted apart.
 */
@WithRedis
@ExtendWith(OutputCaptureExtension.class)
class HostileKeysLogIntegrationTests {

    private static final String FORGED_TIME = "2026-11-28T00:34:59.999Z";

    private static final String FORGED = "victim\r\n" + FORGED_TIME
            + "  INFO 1 --- [app] [main] i.g.l.Admin : ban of key 'mallory' lifted by admin";

    @ParameterizedTest(name = "logging.structured.format.console={0}")
    @ValueSource(strings = { "", "ecs" })
    void noKeyForgesALineColoursTheTerminalOrFillsTheLog(String format, CapturedOutput output) {
        try (ConfigurableApplicationContext app = start(format)) {
            String megabyte = "m".repeat(1_048_576);
            for (String key : List.of(FORGED, "\u001b[2J\u001b[1;31mred\u0007", megabyte)) {
                // the second call raises the alert, the third starts the ban
                List<Integer> statuses = List.of(read(app, key), read(app, key), read(app, key));
                assertThat(statuses).as("calls of %.40s", key).containsExactly(200, 200, 429);
            }
        }
        finally {
            // Spring Boot keeps the format in a system property that outlives the application
            System.clearProperty(LoggingSystemProperty.CONSOLE_STRUCTURED_FORMAT.getEnvironmentVariableName());
        }
        List<String> lines = output.getOut().lines().toList();
        List<String> limiterLines = lines.stream().filter(line -> line.contains("Rate limit 'hostile.read'")).toList();
        assertThat(limiterLines).as("an alert and a ban line of each key").hasSize(6);
        assertThat(lines).noneMatch(line -> line.startsWith(FORGED_TIME));
        assertThat(output.getOut()).doesNotContain("\u001b[2J", "\u001b[1;31m", "\u0007");
        assertThat(limiterLines).allSatisfy(line -> assertThat(line).hasSizeLessThan(600));
        assertThat(output.getOut()).as("the log of three keys, one a megabyte").hasSizeLessThan(200_000);
        // the escapes as the default format writes them; structured logging escapes the backslashes once more
        String backslash = format.isEmpty() ? "\\" : "\\\\";
        assertThat(limiterLines).anySatisfy(line -> assertThat(line).contains(
                "key 'victim" + backslash + "r" + backslash + "n" + FORGED_TIME + "  INFO 1 --- [app]"));
        assertThat(limiterLines).anySatisfy(line -> assertThat(line)
            .contains(backslash + "u001B[2J" + backslash + "u001B[1;31mred" + backslash + "u0007"));
        assertThat(limiterLines).anySatisfy(line -> assertThat(line)
            .contains("m".repeat(64) + "...(1048576 chars, sha256 "));
        if (!format.isEmpty()) {
            assertThat(limiterLines).allSatisfy(line -> assertThat(line).startsWith("{").endsWith("}"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "sur\udfff", "sur?", "sur\ufffd" })
    void aBanOfALoneSurrogateKeyRefusesNoOtherKey(String other) {
        try (ConfigurableApplicationContext app = start("")) {
            String banned = "sur\udc80";
            assertThat(List.of(read(app, banned), read(app, banned), read(app, banned), read(app, banned)))
                .containsExactly(200, 200, 429, 429);
            assertThat(read(app, other)).isEqualTo(200);
            assertThat(read(app, other)).isEqualTo(200);
        }
    }

    private static int read(ConfigurableApplicationContext app, String user) {
        int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0"));
        HttpResponse<String> answer = new LocalHttp(port).send("POST", "/read",
                Map.of("Content-Type", "application/json"), "{\"user\":\"" + json(user) + "\"}");
        return answer.statusCode();
    }

    /** The key as a JSON string's content, every character outside printable ASCII as an escape. */
    private static String json(String text) {
        StringBuilder json = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                json.append(String.format("\\u%04x", (int) c));
            }
            else {
                json.append(c);
            }
        }
        return json.toString();
    }

    private static ConfigurableApplicationContext start(String format) {
        return new SpringApplicationBuilder(HostileKeysApp.class).web(WebApplicationType.SERVLET)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run("--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                    "--spring.data.redis.port=" + RedisServerExtension.redis().port(),
                    "--limiter.key-prefix=hostile-log-" + UUID.randomUUID() + ":",
                    "--logging.structured.format.console=" + format);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Reads.class)
    static class HostileKeysApp {

    }

    /** A read form, as a JSON body: {@code {"user": "..."}}. */
    public record ReadForm(String user) {
    }

    @RestController
    static class Reads {

        @PostMapping("/read")
        @RateLimit(name = "hostile.read", key = "#form.user", window = "1m", max = 2, alertAt = 1, banFor = "1m")
        public String read(@RequestBody ReadForm form) {
            return "read";
        }

    }

}
