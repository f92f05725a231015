package io.github.limiter.sample.answers;

/**
 * The answer to a question.
 *
 * @param questionId the question's id
 * @param question the question
 * @param text the answer
 */
public record Answer(long questionId, String question, String text) {

}
