package io.github.limiter.autoconfigure.redis;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.limiter.autoconfigure.LimiterAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LimiterTasks}: where the limiter's background work runs, as the auto-configuration sets it up.
 */
class LimiterTasksTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
                    LimiterRedisAutoConfiguration.class, LimiterAutoConfiguration.class,
                    LimiterPolicyOverridesAutoConfiguration.class));

    @Test
    void runsItsBackgroundWorkOnASchedulerOfItsOwnThatStopsWithTheContext() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            // nothing listens once it is closed: the limiter keeps connecting, in the background
            port = socket.getLocalPort();
        }
        AtomicReference<ThreadPoolTaskScheduler> used = new AtomicReference<>();
        this.runner.withPropertyValues("spring.data.redis.port=" + port, "limiter.redis.connect-timeout=100ms")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context).as("Spring Boot's own scheduler is not replaced")
                    .doesNotHaveBean(TaskScheduler.class);
                ThreadPoolTaskScheduler scheduler = (ThreadPoolTaskScheduler) context.getBean(LimiterTasks.class)
                    .scheduler();
                used.set(scheduler);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (scheduler.getScheduledThreadPoolExecutor().getCompletedTaskCount() < 2
                        && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertThat(scheduler.getScheduledThreadPoolExecutor().getCompletedTaskCount())
                    .as("attempts to connect and to subscribe, run on it").isGreaterThanOrEqualTo(2);
                assertThat(scheduler.getThreadNamePrefix()).isEqualTo("limiter-");
            });
        assertThat(used.get().getScheduledThreadPoolExecutor().isShutdown()).as("stopped with the context").isTrue();
    }

}
