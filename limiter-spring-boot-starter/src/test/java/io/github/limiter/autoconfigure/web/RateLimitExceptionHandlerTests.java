package io.github.limiter.autoconfigure.web;

import java.net.URI;
import java.time.Duration;

import io.github.limiter.BlankRateLimitKeyException;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.autoconfigure.LimiterWebProperties.Headers;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitExceptionHandlerTests {

    private final RateLimitExceptionHandler handler = new RateLimitExceptionHandler(HttpStatus.FORBIDDEN,
            Headers.NONE, RateLimitProblemTypes.DEFAULT_BASE);

    @Test
    void publishesTheTypesAsTheDefaultBaseAndOneSlugPerRefusal() {
        assertThat(RateLimitProblemTypes.RATE_LIMIT_EXCEEDED)
            .isEqualTo(URI.create("https://limiter.github.io/problems/rate-limit-exceeded"));
        assertThat(RateLimitProblemTypes.BANNED).isEqualTo(URI.create("https://limiter.github.io/problems/banned"));
        assertThat(RateLimitProblemTypes.LIMITER_UNAVAILABLE)
            .isEqualTo(URI.create("https://limiter.github.io/problems/limiter-unavailable"));
    }

    @Test
    void answersAFailureToDecideWith503TheLimiterUnavailableTypeAndTheLimit() {
        ResponseEntity<ProblemDetail> answer = this.handler.handle(refused(Outcome.ERROR, Duration.ofSeconds(1)));

        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
        ProblemDetail problem = answer.getBody();
        assertThat(problem.getType()).isEqualTo(RateLimitProblemTypes.LIMITER_UNAVAILABLE);
        assertThat(problem.getTitle()).isEqualTo("Rate limiter unavailable");
        assertThat(problem.getDetail()).isEqualTo("The rate limiter cannot decide right now. Retry after 1 seconds.");
        assertThat(problem.getProperties()).containsEntry("limitId", "answers")
            .containsEntry("limit", 20L)
            .containsEntry("retryAfter", 1L)
            .containsEntry("banned", false);
    }

    @Test
    void answersABanWithTheConfiguredStatusAndTheBannedType() {
        ResponseEntity<ProblemDetail> answer = this.handler.handle(refused(Outcome.BANNED, Duration.ofMinutes(15)));

        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
        ProblemDetail problem = answer.getBody();
        assertThat(problem.getStatus()).isEqualTo(403);
        assertThat(problem.getType()).isEqualTo(RateLimitProblemTypes.BANNED);
        assertThat(problem.getTitle()).isEqualTo("Banned for exceeding a rate limit");
        assertThat(problem.getProperties()).containsEntry("limitId", "answers").containsEntry("banned", true);
    }

    @Test
    void appendsTheSlugsToTheConfiguredBaseEvenAnOpaqueOne() {
        RateLimitExceptionHandler tagged = new RateLimitExceptionHandler(HttpStatus.TOO_MANY_REQUESTS, Headers.NONE,
                URI.create("tag:example.com,2026:problems/"));

        ProblemDetail problem = tagged.handle(refused(Outcome.REJECTED, Duration.ofSeconds(30))).getBody();

        assertThat(problem.getType()).isEqualTo(URI.create("tag:example.com,2026:problems/rate-limit-exceeded"));
    }

    @Test
    void answersABlankKeyWith400TheBlankKeyTypeAndTheLimitButNotTheExpression() {
        RateLimitExceptionHandler tagged = new RateLimitExceptionHandler(HttpStatus.TOO_MANY_REQUESTS, Headers.BOTH,
                URI.create("tag:example.com,2026:problems/"));

        ResponseEntity<ProblemDetail> answer = tagged
            .handle(new BlankRateLimitKeyException("answers", "#user.id", "AnswerService.answer(User)"));

        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(answer.getHeaders().get(HttpHeaders.RETRY_AFTER)).isNull();
        ProblemDetail problem = answer.getBody();
        assertThat(problem.getType()).isEqualTo(URI.create("tag:example.com,2026:problems/blank-key"));
        assertThat(problem.getTitle()).isEqualTo("Rate limit key missing");
        assertThat(problem.getDetail()).isEqualTo("The request lacks the value rate limit 'answers' counts calls by.");
        assertThat(problem.getProperties()).containsOnlyKeys("limitId").containsEntry("limitId", "answers");
        assertThat(RateLimitProblemTypes.BLANK_KEY).isEqualTo(URI.create("https://limiter.github.io/problems/blank-key"));
    }

    private static RateLimitExceededException refused(Outcome outcome, Duration retryAfter) {
        return new RateLimitExceededException(new Decision("answers", "alice", outcome, 20, 20, 0, retryAfter,
                Duration.ofSeconds(30), false, false, false, false));
    }

}
