package io.github.limiter.sample.auth;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.session.data.redis.config.ConfigureNotifyKeyspaceEventsAction;

/**
 * Turns on the keyspace events Spring Session's indexed repository needs (so that expired sessions
 * leave the index) and subscribes its listener container, in the background: at once if Redis
 * answers, else every second until it does. One log line while Redis cannot be reached, one when it
 * is done. A Redis that forbids {@code CONFIG} gets one warning and keeps its setting; its operator
 * sets {@code notify-keyspace-events Egx}.
 */
class SessionEventsInBackground implements SmartLifecycle {

    private static final Log logger = LogFactory.getLog(SessionEventsInBackground.class);

    private final RedisConnectionFactory connectionFactory;

    private final RedisMessageListenerContainer container;

    private volatile ScheduledExecutorService executor;

    private volatile boolean keyspaceEventsDone;

    private volatile boolean waiting;

    SessionEventsInBackground(RedisConnectionFactory connectionFactory, RedisMessageListenerContainer container) {
        this.connectionFactory = connectionFactory;
        this.container = container;
    }

    @Override
    public void start() {
        this.executor = Executors.newSingleThreadScheduledExecutor((runnable) -> {
            Thread thread = new Thread(runnable, "sample-session-events");
            thread.setDaemon(true);
            return thread;
        });
        this.executor.execute(this::attempt);
    }

    private void attempt() {
        try {
            if (!this.keyspaceEventsDone) {
                try (RedisConnection connection = this.connectionFactory.getConnection()) {
                    new ConfigureNotifyKeyspaceEventsAction().configure(connection);
                }
                catch (IllegalStateException ex) {
                    logger.warn("Cannot turn on Redis keyspace events (" + ex.getMessage() + "); set "
                            + "notify-keyspace-events Egx on Redis so that expired sessions leave the index");
                }
                this.keyspaceEventsDone = true;
            }
            this.container.start();
            logger.info("Session events from Redis are on" + (this.waiting ? " (Redis answers again)" : ""));
        }
        catch (DataAccessException ex) {
            this.container.stop();
            if (!this.waiting) {
                this.waiting = true;
                logger.warn("Redis cannot be reached to turn on session events (" + ex.getMessage()
                        + "); trying every second");
            }
            if (!this.executor.isShutdown()) {
                this.executor.schedule(this::attempt, 1, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void stop() {
        this.executor.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return this.executor != null && !this.executor.isShutdown();
    }

}
