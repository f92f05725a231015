package io.github.limiter.test.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.test.context.TestContext;

import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/**
 * Tests for {@link LimiterResetTestExecutionListener}.
 */
class LimiterResetTestExecutionListenerTests {

    private final LimiterResetTestExecutionListener listener = new LimiterResetTestExecutionListener();

    private final RateLimitTester tester = mock(RateLimitTester.class);

    @Test
    void resetsAfterATestOfAnAnnotatedClass() {
        this.listener.afterTestMethod(testContext(Annotated.class));

        verify(this.tester).resetAll();
    }

    @Test
    void resetsAfterATestOfAClassNestedInAnAnnotatedOne() {
        this.listener.afterTestMethod(testContext(Annotated.Inner.class));

        verify(this.tester).resetAll();
    }

    @Test
    void leavesATestOfAnotherClassAlone() {
        TestContext testContext = testContext(NotAnnotated.class);

        this.listener.afterTestMethod(testContext);

        verify(testContext, never()).getApplicationContext();
    }

    @Test
    void leavesATestWhoseContextIsGoneAlone() {
        TestContext testContext = testContext(Annotated.class);
        given(testContext.hasApplicationContext()).willReturn(false);

        this.listener.afterTestMethod(testContext);

        verify(testContext, never()).getApplicationContext();
    }

    private TestContext testContext(Class<?> testClass) {
        GenericApplicationContext context = new GenericApplicationContext();
        context.registerBean(RateLimitTester.class, () -> this.tester);
        context.refresh();
        TestContext testContext = mock(TestContext.class);
        given(testContext.getTestClass()).willAnswer(invocation -> testClass);
        given(testContext.hasApplicationContext()).willReturn(true);
        given(testContext.getApplicationContext()).willReturn(context);
        return testContext;
    }

    @AutoConfigureLimiterRedis
    static class Annotated {

        class Inner {

        }

    }

    static class NotAnnotated {

    }

}
