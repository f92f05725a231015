package io.github.limiter.sample.auth;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.session.web.http.HttpSessionIdResolver;

/**
 * Reads the session id from {@code Authorization: Bearer <token>}: the token a login returns is
 * the id of the session it created. The login hands the token out in its JSON answer, so nothing
 * is written to responses here.
 */
class BearerTokenSessionIdResolver implements HttpSessionIdResolver {

    private static final String BEARER = "Bearer ";

    @Override
    public List<String> resolveSessionIds(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return List.of();
        }
        String token = authorization.substring(BEARER.length()).trim();
        return token.isEmpty() ? List.of() : List.of(token);
    }

    @Override
    public void setSessionId(HttpServletRequest request, HttpServletResponse response, String sessionId) {
    }

    @Override
    public void expireSession(HttpServletRequest request, HttpServletResponse response) {
    }

}
