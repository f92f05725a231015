package io.github.limiter.autoconfigure;

import java.nio.file.Path;

import io.github.limiter.test.PackageCycles;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No package of the starter depends on itself through others: the auto-configurations of
 * {@code .redis}, {@code .web}, {@code .health}, {@code .metrics} and {@code .endpoint} use the
 * root's properties, and the root uses none of them (the core's packages are checked by
 * {@code CoreShapeTests}).
 */
class StarterPackagesTests {

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        PackageCycles packages = PackageCycles.in(Path.of("target", "classes"));
        assertThat(packages.uses()).as("jdeps found the starter's packages")
            .containsKeys("io.github.limiter.autoconfigure", "io.github.limiter.autoconfigure.redis",
                    "io.github.limiter.autoconfigure.web", "io.github.limiter.autoconfigure.health");
        assertThat(packages.onACycle()).as("packages on a cycle, with %s", packages).isEmpty();
    }

}
