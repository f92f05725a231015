package io.github.limiter.test.autoconfigure;

import java.io.File;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link EmbeddedRedisServer}.
 */
class EmbeddedRedisServerTests {

    @Test
    void runsTheBundledExecutableWhenNoneIsNamed() {
        assertThat(EmbeddedRedisServer.executable(null)).isFile();
        assertThat(EmbeddedRedisServer.executable(" ")).isFile();
    }

    @Test
    void runsTheNamedExecutable() {
        File bundled = EmbeddedRedisServer.executable(null);

        assertThat(EmbeddedRedisServer.executable(bundled.getPath())).isEqualTo(bundled.getAbsoluteFile());
    }

    @Test
    void namedPathThatIsNoExecutableIsRefusedNamingTheProperty() {
        assertThatIllegalStateException().isThrownBy(() -> EmbeddedRedisServer.executable("/no/such/redis-server"))
            .withMessageContaining("limiter.test.redis-server")
            .withMessageContaining("/no/such/redis-server");
    }

    @Test
    void sharedServerIsStartedOnceAndRuns() {
        assertThat(EmbeddedRedisServer.shared()).isSameAs(EmbeddedRedisServer.shared());
        assertThat(EmbeddedRedisServer.shared().isRunning()).isTrue();
    }

}
