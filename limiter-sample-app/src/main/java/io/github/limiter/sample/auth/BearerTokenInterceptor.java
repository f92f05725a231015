package io.github.limiter.sample.auth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Requires a valid {@code Authorization: Bearer <token>} and puts the {@link User} in the request
 * attribute {@value #USER}; {@code /admin/**} also requires an administrator.
 */
class BearerTokenInterceptor implements HandlerInterceptor {

    static final String USER = "user";

    private static final String BEARER = "Bearer ";

    private final Tokens tokens;

    private final Users users;

    BearerTokenInterceptor(Tokens tokens, Users users) {
        this.tokens = tokens;
        this.users = users;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        User user = (authorization != null && authorization.startsWith(BEARER))
                ? this.tokens.username(authorization.substring(BEARER.length()).trim())
                    .flatMap(this.users::find)
                    .orElse(null)
                : null;
        if (user == null) {
            throw new ResponseStatusException(HttpStatus.UNAUTHORIZED, "Log in and send Authorization: Bearer <token>");
        }
        if (request.getRequestURI().startsWith("/admin/") && !user.admin()) {
            throw new ResponseStatusException(HttpStatus.FORBIDDEN, "Administrators only");
        }
        request.setAttribute(USER, user);
        return true;
    }

}
