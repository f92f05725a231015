package io.github.limiter.sample.auth;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts answers and the admin API behind bearer tokens.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final Tokens tokens;

    private final Users users;

    WebConfiguration(Tokens tokens, Users users) {
        this.tokens = tokens;
        this.users = users;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new BearerTokenInterceptor(this.tokens, this.users))
            .addPathPatterns("/questions/**", "/admin/**");
    }

}
