package io.github.limiter.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The Spring Boot versions the Boot 3 starter accepts: Spring Boot 3.5 and later 3.x. (The Boot 4
 * starter's test of the same name checks its own and does not run here.)
 */
class SpringBootVersionCheckTests {

    @Test
    void acceptsTheSpringBootItRunsOn() {
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(SpringBootVersion.getVersion()));
    }

    @ParameterizedTest
    @ValueSource(strings = { "3.5.0", "3.5.16", "3.6.0-M1" })
    void acceptsSpringBoot35AndLaterReleasesOfTheSameGeneration(String version) {
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(version));
    }

    @ParameterizedTest
    @ValueSource(strings = { "3.4.0", "2.7.18", "4.0.0", "5.0.0" })
    void refusesOlderAndNewerGenerations(String version) {
        assertThatIllegalStateException().isThrownBy(() -> SpringBootVersionCheck.check(version));
    }

    @Test
    void refusesSpringBoot4NamingTheStarterToUse() {
        assertThatIllegalStateException().isThrownBy(() -> SpringBootVersionCheck.check("4.1.1"))
            .withMessage("io.github.limiter:limiter-spring-boot3-starter supports Spring Boot 3.5 to 3.x, but this "
                    + "application runs Spring Boot 4.1.1: rate limiting would not work; for Spring Boot 4, use "
                    + "io.github.limiter:limiter-spring-boot-starter");
    }

}
