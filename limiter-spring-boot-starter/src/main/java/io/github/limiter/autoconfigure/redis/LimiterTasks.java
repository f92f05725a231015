package io.github.limiter.autoconfigure.redis;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Where the limiter's background work runs: connecting while Redis is down, subscribing to
 * unbans and resets and recovering that subscription, reading the policy overrides, writing the recent alerts
 * and bans. One Spring
 * {@link ThreadPoolTaskScheduler}, built with Spring Boot's {@link ThreadPoolTaskSchedulerBuilder}
 * (so the application's {@code spring.task.scheduling.shutdown.*} settings and scheduler
 * customizers apply), with three threads of its own, named {@code limiter-}: an attempt to connect
 * waits up to the connect timeout, and must not delay the application's own scheduled tasks, and a
 * blocking client (Jedis) holds one for the subscription while it is subscribed. It stops with the
 * application context.
 *
 * <p>Not a {@link TaskScheduler} bean: one would make Spring Boot's own scheduler back off and run
 * the application's {@code @Scheduled} methods.
 */
final class LimiterTasks implements DisposableBean {

    private final ThreadPoolTaskScheduler scheduler;

    LimiterTasks(ThreadPoolTaskSchedulerBuilder builder) {
        ThreadPoolTaskScheduler scheduler = builder.poolSize(3).threadNamePrefix("limiter-").build();
        scheduler.setDaemon(true);
        scheduler.initialize();
        this.scheduler = scheduler;
    }

    TaskScheduler scheduler() {
        return this.scheduler;
    }

    Executor executor() {
        return this.scheduler;
    }

    /** The scheduler's executor, for the subscription's listener container, which recovers on its timer. */
    ScheduledExecutorService scheduledExecutor() {
        return this.scheduler.getScheduledExecutor();
    }

    @Override
    public void destroy() {
        this.scheduler.shutdown();
    }

}
