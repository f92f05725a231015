package io.github.limiter.sample;

import java.util.List;
import java.util.UUID;

import io.github.limiter.test.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app starts with no WARN or ERROR line in its log while Redis is up: a warning on every
 * start (such as Spring's "not eligible for getting processed by all BeanPostProcessors" for a bean
 * an advisor needs) teaches operators to ignore warnings.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupLogIntegrationTests {

    @Test
    void startsWithoutWarnings(CapturedOutput output) {
        String prefix = "startup-" + UUID.randomUUID() + ":";
        // a Redis as docs/operations.md has one run for the limiter, with AOF: without it, the start
        // rightly warns that a restart of Redis loses every ban
        try (EmbeddedRedis redis = EmbeddedRedis.startWith("appendonly yes", "appendfsync everysec");
                ConfigurableApplicationContext started = SpringApplication.run(SampleApplication.class, "--server.port=0",
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--limiter.key-prefix=" + prefix, "--sample.sessions.namespace=" + prefix + "sessions")) {
            List<String> warnings = output.getOut()
                .lines()
                .filter((line) -> line.contains(" WARN ") || line.contains(" ERROR "))
                // the start runs on the main thread; other threads may be earlier tests' apps closing
                .filter((line) -> line.contains(" main] "))
                .toList();
            assertThat(warnings).as("WARN and ERROR lines of the start").isEmpty();
            assertThat(started.isActive()).isTrue();
            assertThat(output.getOut()).contains("Tomcat started on port");
        }
    }

}
