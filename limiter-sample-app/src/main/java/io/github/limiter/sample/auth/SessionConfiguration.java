package io.github.limiter.sample.auth;

import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.session.data.redis.config.ConfigureRedisAction;
import org.springframework.session.data.redis.config.annotation.web.http.RedisIndexedHttpSessionConfiguration;
import org.springframework.session.web.http.SessionRepositoryFilter;

/**
 * Sessions in Redis with Spring Session's indexed repository, shared by every instance: a token
 * issued by one instance works on all of them, and ending a user's sessions (found through the
 * repository's index of sessions by principal name) logs the user out everywhere at once.
 *
 * <p>This is {@code @EnableRedisIndexedHttpSession} with one change: an instance starts while Redis
 * is away. Spring Session would turn on Redis's keyspace events and subscribe to its session
 * channels during the start, and fail it; here {@link SessionEventsInBackground} does both as soon
 * as Redis answers, and requests answer 503 meanwhile ({@link RedisUnavailableFilter}).
 */
@Configuration(proxyBeanMethods = false)
class SessionConfiguration extends RedisIndexedHttpSessionConfiguration {

    SessionConfiguration(@Value("${sample.sessions.namespace:sample:sessions}") String namespace) {
        setRedisNamespace(namespace);
        setMaxInactiveInterval(Duration.ofHours(1));
        setConfigureRedisAction(ConfigureRedisAction.NO_OP);
    }

    @Bean
    @Override
    public RedisMessageListenerContainer springSessionRedisMessageListenerContainer(
            RedisIndexedSessionRepository sessionRepository) {
        RedisMessageListenerContainer container = super.springSessionRedisMessageListenerContainer(sessionRepository);
        container.setAutoStartup(false);
        return container;
    }

    @Bean
    SessionEventsInBackground sessionEventsInBackground(RedisConnectionFactory connectionFactory,
            RedisMessageListenerContainer springSessionRedisMessageListenerContainer) {
        return new SessionEventsInBackground(connectionFactory, springSessionRedisMessageListenerContainer);
    }

    @Bean
    FilterRegistrationBean<RedisUnavailableFilter> redisUnavailableFilter(ProblemResponses problems) {
        FilterRegistrationBean<RedisUnavailableFilter> registration = new FilterRegistrationBean<>(
                new RedisUnavailableFilter(problems));
        registration.setOrder(SessionRepositoryFilter.DEFAULT_ORDER - 1);
        return registration;
    }

}
