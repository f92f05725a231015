package io.github.limiter.sample.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.github.limiter.RateLimiter;
import io.github.limiter.sample.answers.AnswerController;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/login}: returns a bearer token, or refuses a banned user with 403 and the time
 * the ban ends.
 */
@RestController
class LoginController {

    private final Users users;

    private final Tokens tokens;

    private final RateLimiter rateLimiter;

    LoginController(Users users, Tokens tokens, RateLimiter rateLimiter) {
        this.users = users;
        this.tokens = tokens;
        this.rateLimiter = rateLimiter;
    }

    @PostMapping("/api/login")
    ResponseEntity<?> login(@RequestBody Credentials credentials) {
        User user = this.users.authenticate(credentials.username(), credentials.password()).orElse(null);
        if (user == null) {
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, "Wrong user name or password"));
        }
        // The ban lives in Redis, so every instance refuses the login, not only the one that banned.
        Duration banTimeLeft = this.rateLimiter.banTimeLeft(AnswerController.LIMIT_ID, user.username());
        if (!banTimeLeft.isZero()) {
            Instant until = Instant.now().plus(banTimeLeft);
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN,
                    user.username() + " is banned for reading too fast, until " + until);
            problem.setTitle("Banned");
            problem.setProperty("bannedUntil", until.toString());
            return ResponseEntity.status(HttpStatus.FORBIDDEN).body(problem);
        }
        return ResponseEntity.ok(Map.of("token", this.tokens.issue(user.username())));
    }

    record Credentials(String username, String password) {
    }

}
