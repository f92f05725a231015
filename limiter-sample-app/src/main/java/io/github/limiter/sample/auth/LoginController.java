package io.github.limiter.sample.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.github.limiter.OnFailure;
import io.github.limiter.RateLimiter;
import io.github.limiter.autoconfigure.LimiterProperties;
import io.github.limiter.autoconfigure.web.RateLimitProblemTypes;
import io.github.limiter.sample.answers.AnswerController;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/login}: returns a bearer token, or refuses a banned user with 403 and the time
 * the ban ends. While Redis cannot say whether the user is banned, the login does what the
 * {@code answers} policy does on failure: with {@code allow} (the default) it logs the user in, as
 * reads stay open too; with {@code deny} it answers 503.
 */
@RestController
class LoginController {

    private static final Log logger = LogFactory.getLog(LoginController.class);

    private final Users users;

    private final Tokens tokens;

    private final RateLimiter rateLimiter;

    private final OnFailure onFailure;

    LoginController(Users users, Tokens tokens, RateLimiter rateLimiter, LimiterProperties properties) {
        this.users = users;
        this.tokens = tokens;
        this.rateLimiter = rateLimiter;
        LimiterProperties.Policy answers = properties.getPolicies().get(AnswerController.LIMIT_ID);
        this.onFailure = (answers != null && answers.getOnFailure() != null) ? answers.getOnFailure()
                : properties.getRedis().getOnFailure();
    }

    @PostMapping("/api/login")
    ResponseEntity<?> login(@RequestBody Credentials credentials) {
        User user = this.users.authenticate(credentials.username(), credentials.password()).orElse(null);
        if (user == null) {
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, "Wrong user name or password"));
        }
        Duration banTimeLeft;
        try {
            // The ban lives in Redis, so every instance refuses the login, not only the one that banned.
            banTimeLeft = this.rateLimiter.banTimeLeft(AnswerController.LIMIT_ID, user.username());
        }
        catch (DataAccessException ex) {
            if (this.onFailure == OnFailure.DENY) {
                ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                        "Cannot tell whether " + user.username() + " is banned right now; try again shortly");
                problem.setType(RateLimitProblemTypes.LIMITER_UNAVAILABLE);
                problem.setTitle("Rate limiter unavailable");
                return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "1").body(problem);
            }
            logger.debug("Cannot read " + user.username() + "'s ban (" + ex.getMessage() + "); logging in, as "
                    + "the answers policy allows calls on failure");
            banTimeLeft = Duration.ZERO;
        }
        if (!banTimeLeft.isZero()) {
            Instant until = Instant.now().plus(banTimeLeft);
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN,
                    user.username() + " is banned for reading too fast, until " + until);
            problem.setType(RateLimitProblemTypes.BANNED);
            problem.setTitle("Banned for exceeding a rate limit");
            problem.setProperty("limitId", AnswerController.LIMIT_ID);
            problem.setProperty("bannedUntil", until.toString());
            return ResponseEntity.status(HttpStatus.FORBIDDEN).body(problem);
        }
        return ResponseEntity.ok(Map.of("token", this.tokens.issue(user.username())));
    }

    record Credentials(String username, String password) {
    }

}
