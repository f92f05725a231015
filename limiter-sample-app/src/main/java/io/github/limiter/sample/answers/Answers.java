package io.github.limiter.sample.answers;

import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

/**
 * The site's answers, kept in memory for the demo.
 */
@Component
public class Answers {

    private static final Map<Long, Answer> ANSWERS = Map.of(
            1L, new Answer(1, "Why must INCR and EXPIRE run in one script?",
                    "Between the two commands the counter can be created without an expiry and then live forever."),
            2L, new Answer(2, "What does a fixed window allow at its edge?",
                    "Up to twice the limit: max calls at the end of one window and max at the start of the next."),
            3L, new Answer(3, "Why keep the counters in Redis?",
                    "So that every application server counts the same calls."));

    Optional<Answer> find(long questionId) {
        return Optional.ofNullable(ANSWERS.get(questionId));
    }

}
