package io.github.limiter.sample.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

import io.github.limiter.RateLimitAdmin;
import io.github.limiter.autoconfigure.web.RateLimitProblemTypes;
import io.github.limiter.sample.answers.AnswerLimits;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/login}: refuses a user banned under any plan's limit with 403 and the time the
 * ban ends, whatever the password; checks the credentials with Spring Security under the limits of
 * failed logins ({@link LoginAttempts}: 429 past them), and opens a session in Redis whose id is the
 * bearer token. While Redis cannot be reached there is neither a ban to check nor a
 * session to open: 503.
 * {@code POST /api/logout} ends the token's session.
 */
@RestController
class LoginController {

    private final LoginAttempts loginAttempts;

    private final FindByIndexNameSessionRepository<? extends Session> sessions;

    private final RateLimitAdmin rateLimits;

    private final AnswerLimits answerLimits;

    // the concrete type, as KickOffline's: the generic interface does not match once AOT-processed
    LoginController(LoginAttempts loginAttempts, RedisIndexedSessionRepository sessions,
            RateLimitAdmin rateLimits, AnswerLimits answerLimits) {
        this.loginAttempts = loginAttempts;
        this.sessions = sessions;
        this.rateLimits = rateLimits;
        this.answerLimits = answerLimits;
    }

    @PostMapping("/api/login")
    ResponseEntity<?> login(@RequestBody Credentials credentials) {
        if (credentials.username() == null || credentials.username().isBlank() || credentials.password() == null) {
            return problem(HttpStatus.BAD_REQUEST, "A login needs a username and a password");
        }
        // the user store compares names without case: so do the ban check and the limit per user
        String username = credentials.username().strip().toLowerCase(Locale.ROOT);
        try {
            // The ban lives in Redis, so every instance refuses the login, not only the one that banned.
            // It is checked before the password, whose answer would otherwise tell a banned user
            // (or whoever guesses for them) whether the password was right.
            ResponseEntity<ProblemDetail> banned = bannedLogin(username);
            if (banned != null) {
                return banned;
            }
            Authentication user;
            try {
                // past a limit of failed logins, this throws RateLimitExceededException: 429
                user = this.loginAttempts.authenticate(username, credentials.password());
            }
            catch (AuthenticationException ex) {
                return problem(HttpStatus.UNAUTHORIZED, "Wrong user name or password");
            }
            // a user store that names the user otherwise than typed: the ban is under its name
            banned = user.getName().equals(username) ? null : bannedLogin(user.getName());
            return (banned != null) ? banned : ResponseEntity.ok(Map.of("token", open(this.sessions, user)));
        }
        catch (DataAccessException ex) {
            ResponseEntity<ProblemDetail> unavailable = problem(HttpStatus.SERVICE_UNAVAILABLE,
                    "Sessions and bans are kept in Redis, which cannot be reached right now; try again shortly");
            return ResponseEntity.status(unavailable.getStatusCode()).header("Retry-After", "1")
                .body(unavailable.getBody());
        }
    }

    /** A 403 if the user is banned under any plan's limit, else {@code null}. */
    private @Nullable ResponseEntity<ProblemDetail> bannedLogin(String username) {
        for (String limitId : this.answerLimits.limitIds()) {
            Duration banTimeLeft = this.rateLimits.banTimeLeft(limitId, username);
            if (!banTimeLeft.isZero()) {
                return banned(username, limitId, Instant.now().plus(banTimeLeft));
            }
        }
        return null;
    }

    /** {@code POST /api/logout}: ends the session of the token, on every instance. */
    @PostMapping("/api/logout")
    ResponseEntity<Void> logout(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        return ResponseEntity.noContent().build();
    }

    /**
     * Opens a session for the user, indexed by the user's name, and returns its id.
     */
    private static <S extends Session> String open(FindByIndexNameSessionRepository<S> sessions,
            Authentication user) {
        S session = sessions.createSession();
        SecurityContext context = new SecurityContextImpl(user);
        session.setAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY, context);
        session.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, user.getName());
        sessions.save(session);
        return session.getId();
    }

    private static ResponseEntity<ProblemDetail> banned(String username, String limitId, Instant until) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN,
                username + " is banned for reading too fast, until " + until);
        problem.setType(RateLimitProblemTypes.BANNED);
        problem.setTitle("Banned for exceeding a rate limit");
        problem.setProperty("limitId", limitId);
        problem.setProperty("bannedUntil", until.toString());
        return ResponseEntity.status(HttpStatus.FORBIDDEN).body(problem);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail) {
        return ResponseEntity.status(status).body(ProblemDetail.forStatusAndDetail(status, detail));
    }

    record Credentials(@Nullable String username, @Nullable String password) {
    }

}
