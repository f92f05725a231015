package io.github.limiter.interceptor;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.annotation.RateLimit;
import org.junit.jupiter.api.Test;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Processed ahead of time, an application creates the advisor before binding its configuration
 * properties, so without the policies its limits name: the advisor then only tells which methods
 * are limited, for their proxy classes to be generated.
 */
class RateLimitAdvisorAotProcessingTests {

    @Test
    void generatesTheProxyOfALimitedBeanWithoutResolvingItsPolicy() {
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        String previous = System.setProperty(AbstractAotProcessor.AOT_PROCESSING, "true");
        try {
            processAheadOfTime(files);
        }
        finally {
            if (previous != null) {
                System.setProperty(AbstractAotProcessor.AOT_PROCESSING, previous);
            }
            else {
                System.clearProperty(AbstractAotProcessor.AOT_PROCESSING);
            }
        }
        assertThat(files.getGeneratedFiles(Kind.CLASS).keySet())
            .anyMatch((name) -> name.contains("Answers$$SpringCGLIB$$"));
    }

    @Test
    void resolvesTheLimitsWhenNotProcessingAheadOfTime() {
        assertThatExceptionOfType(InvalidRateLimitException.class)
            .isThrownBy(() -> processAheadOfTime(new InMemoryGeneratedFiles()))
            .withMessageContaining("policy = 'answers' is not defined");
    }

    private static void processAheadOfTime(InMemoryGeneratedFiles files) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        AopConfigUtils.registerAutoProxyCreatorIfNecessary(context);
        context.register(LimitedConfiguration.class);
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(RateLimitAdvisorAotProcessingTests.class)), files);
        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
    }

    @Configuration(proxyBeanMethods = false)
    public static class LimitedConfiguration {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        public static RateLimitAdvisor rateLimitAdvisor() {
            // no policies, as when the starter creates it before the properties are bound
            return new RateLimitAdvisor(() -> {
                throw new IllegalStateException("no call is made");
            }, null);
        }

        @Bean
        public Answers answers() {
            return new Answers();
        }

    }

    public static class Answers {

        @RateLimit(policy = "answers", key = "#user")
        public String answer(String user) {
            return "42";
        }

    }

}
