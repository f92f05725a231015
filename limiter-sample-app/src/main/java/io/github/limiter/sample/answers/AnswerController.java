package io.github.limiter.sample.answers;

import io.github.limiter.annotation.RateLimit;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Serves answers, at most 20 a minute per user: the 21st read within a minute gets HTTP 429 with
 * {@code Retry-After}.
 */
@RestController
public class AnswerController {

    private final Answers answers;

    AnswerController(Answers answers) {
        this.answers = answers;
    }

    @GetMapping("/questions/{questionId}/answer")
    @RateLimit(key = "#userId", window = "60s", max = 20)
    public Answer answer(@PathVariable long questionId, @RequestParam String userId) {
        return this.answers.find(questionId)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No question " + questionId));
    }

}
