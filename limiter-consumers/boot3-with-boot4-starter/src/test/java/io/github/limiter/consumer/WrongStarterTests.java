package io.github.limiter.consumer;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The Spring Boot 4 starter in a Spring Boot 3.5 application: the start fails, naming the starter
 * to use instead, before any limit could be silently off.
 */
class WrongStarterTests {

    @Test
    void theStartFailsNamingTheStarterForSpringBoot3() {
        assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatIllegalStateException().isThrownBy(() -> application.run("--spring.main.banner-mode=off"))
            .withMessageContaining("io.github.limiter:limiter-spring-boot-starter supports Spring Boot 4.0 to 4.x, "
                    + "but this application runs Spring Boot " + SpringBootVersion.getVersion())
            .withMessageContaining("use io.github.limiter:limiter-spring-boot3-starter");
    }

    @SpringBootApplication
    static class App {

    }

}
