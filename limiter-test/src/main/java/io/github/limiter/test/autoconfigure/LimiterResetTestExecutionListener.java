package io.github.limiter.test.autoconfigure;

import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Forgets every key of the limiter after each test method of a test class with
 * {@link AutoConfigureLimiterRedis @AutoConfigureLimiterRedis} (or nested in one), with
 * {@link RateLimitTester#resetAll()}, so that counts, bans and alerts never leak into the next test.
 * Test classes without the annotation are left alone: their Redis may be anything.
 *
 * <p>Registered in {@code META-INF/spring.factories}, as Spring's own listeners are.
 */
final class LimiterResetTestExecutionListener extends AbstractTestExecutionListener {

    /**
     * As late as Spring Boot's listener that resets mocks, so that its {@code afterTestMethod}, which
     * runs in the reverse order, comes before the one of {@code DirtiesContextTestExecutionListener}
     * (order 3000), which may close the context.
     */
    private static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        if (TestContextAnnotationUtils.hasAnnotation(testContext.getTestClass(), AutoConfigureLimiterRedis.class)
                && testContext.hasApplicationContext()) {
            testContext.getApplicationContext()
                .getBeanProvider(RateLimitTester.class)
                .ifUnique(RateLimitTester::resetAll);
        }
    }

}
