package io.github.limiter.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class SpringBootVersionCheckTests {

    @Test
    void acceptsTheSpringBootItRunsOn() {
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(SpringBootVersion.getVersion()));
    }

    @Test
    void acceptsSpringBoot40And41() {
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.0.0"));
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.0.9"));
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.1.1"));
    }

    @Test
    void acceptsLaterReleasesOfTheSameGeneration() {
        assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.2.0-RC1"));
    }

    @Test
    void refusesSpringBoot3NamingTheStarterToUse() {
        assertThatIllegalStateException().isThrownBy(() -> SpringBootVersionCheck.check("3.5.16"))
            .withMessage("io.github.limiter:limiter-spring-boot-starter supports Spring Boot 4.0 to 4.x, but this "
                    + "application runs Spring Boot 3.5.16: rate limiting would not work; for Spring Boot 3.5, use "
                    + "io.github.limiter:limiter-spring-boot3-starter");
    }

    @Test
    void refusesOlderAndNewerGenerations() {
        assertThatIllegalStateException().isThrownBy(() -> SpringBootVersionCheck.check("3.4.0"));
        assertThatIllegalStateException().isThrownBy(() -> SpringBootVersionCheck.check("2.7.18"));
        assertThatIllegalStateException().isThrownBy(() -> SpringBootVersionCheck.check("5.0.0"));
    }

}
