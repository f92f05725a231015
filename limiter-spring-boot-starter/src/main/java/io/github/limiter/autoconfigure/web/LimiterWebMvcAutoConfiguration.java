package io.github.limiter.autoconfigure.web;

import io.github.limiter.RateLimitExceededException;
import io.github.limiter.autoconfigure.LimiterAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Answers {@link RateLimitExceededException} in servlet web applications with HTTP 429, a
 * {@code Retry-After} header and an RFC 9457 problem detail, unless the application handles the
 * exception itself.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ DispatcherServlet.class, RateLimitExceededException.class })
@ConditionalOnBooleanProperty(name = "limiter.enabled", matchIfMissing = true)
public final class LimiterWebMvcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitExceptionHandler rateLimitExceptionHandler() {
        return new RateLimitExceptionHandler();
    }

}
