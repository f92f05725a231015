package io.github.limiter.sample.auth;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers 503 with {@code Retry-After: 1} when a request cannot be served because Redis, which
 * holds every session, cannot be reached: no one can be recognised then, not even with a valid
 * token, and a 500 would say the application is broken rather than waiting for its store. Runs
 * around Spring Session's filter.
 */
class RedisUnavailableFilter extends OncePerRequestFilter {

    private static final Log logger = LogFactory.getLog(RedisUnavailableFilter.class);

    private final ProblemResponses problems;

    RedisUnavailableFilter(ProblemResponses problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        }
        catch (RuntimeException | ServletException ex) {
            DataAccessException redisFailure = redisFailure(ex);
            if (redisFailure == null || response.isCommitted()) {
                throw ex;
            }
            logger.debug("Redis cannot be reached for " + request.getRequestURI() + ": " + redisFailure.getMessage());
            response.resetBuffer();
            response.setHeader("Retry-After", "1");
            this.problems.write(request, response, HttpStatus.SERVICE_UNAVAILABLE,
                    "Sessions are kept in Redis, which cannot be reached right now; try again shortly");
        }
    }

    private static DataAccessException redisFailure(Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataAccessException dataAccess) {
                return dataAccess;
            }
        }
        return null;
    }

}
