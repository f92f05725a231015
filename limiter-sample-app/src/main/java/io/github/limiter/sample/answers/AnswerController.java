package io.github.limiter.sample.answers;

import io.github.limiter.annotation.RateLimit;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.annotation.RegisterReflection;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Serves answers to logged-in users, limited per user by the policy of the user's {@link Plans plan}
 * in {@code application.yml}. On {@code free}: past 10 reads a minute the administrator is alerted,
 * past 20 the user is refused, kicked out and banned; {@code pro} allows more.
 */
@RestController
public class AnswerController {

    /**
     * The name of the limit of answer reads. Each plan counts under a limit id of its own,
     * {@code answers.free} and {@code answers.pro} ({@link AnswerLimits}), which admin tools use to
     * inspect and lift bans.
     */
    public static final String LIMIT_NAME = "answers";

    private final Answers answers;

    AnswerController(Answers answers) {
        this.answers = answers;
    }

    @GetMapping("/questions/{questionId}/answer")
    @RateLimit(name = LIMIT_NAME, policy = "#{@plans.of(#user)}", key = "#user.username")
    // for a native image: the key reads getUsername() of the principal's class, which the limiter
    // cannot know from the declared UserDetails, and the policy calls the plans bean
    @RegisterReflection(classes = { User.class, Plans.class },
            memberCategories = MemberCategory.INVOKE_PUBLIC_METHODS)
    public Answer answer(@PathVariable long questionId, @AuthenticationPrincipal UserDetails user) {
        return this.answers.find(questionId)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No question " + questionId));
    }

}
