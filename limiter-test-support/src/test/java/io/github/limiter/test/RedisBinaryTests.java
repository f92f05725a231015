package io.github.limiter.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RedisBinaryTests {

    @TempDir
    Path directory;

    @Test
    void withoutANameRunsTheRedisBundledInEmbeddedRedis() {
        RedisBinary bundled = RedisBinary.of(null);
        assertThat(bundled.version()).startsWith("Redis server v=6.2.");
        assertThat(bundled.majorVersion()).isEqualTo(6);
        assertThat(RedisBinary.of(" ").version()).isEqualTo(bundled.version());
    }

    @Test
    void namedExecutableIsRunWithTheVersionItReports() throws IOException {
        Path valkey = script("valkey-server", "echo 'Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0'");
        RedisBinary binary = RedisBinary.of(valkey.toString());
        assertThat(binary.executable()).isEqualTo(valkey.toFile());
        assertThat(binary.version()).isEqualTo("Valkey server v=8.0.1");
        assertThat(binary.majorVersion()).isEqualTo(8);
    }

    @Test
    void refusesANameThatIsNoExecutableFile() {
        String missing = this.directory.resolve("redis-server").toString();
        assertThatIllegalStateException().isThrownBy(() -> RedisBinary.of(missing))
            .withMessage("limiter.test.redis-server (or LIMITER_TEST_REDIS_SERVER) names '" + missing
                    + "', which is not an executable file");
    }

    @Test
    void refusesAnExecutableThatIsNoRedisServer() throws IOException {
        Path other = script("redis-cli", "echo 'redis-cli 7.0.15'");
        assertThatIllegalStateException().isThrownBy(() -> RedisBinary.of(other.toString()))
            .withMessage(other + " does not look like redis-server: its --version says 'redis-cli 7.0.15'");
    }

    @Test
    void refusesAnExecutableWhoseVersionFails() throws IOException {
        Path failing = script("redis-server", "echo 'no such option' >&2; exit 1");
        assertThatIllegalStateException().isThrownBy(() -> RedisBinary.of(failing.toString()))
            .withMessage(failing + " --version failed: no such option");
    }

    private Path script(String name, String body) throws IOException {
        Path script = this.directory.resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

}
