package io.github.limiter.sample.answers;

import java.util.List;

import io.github.limiter.LimitDescription;
import io.github.limiter.interceptor.RateLimitAdvisor;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The limit ids answer reads count under: one per policy, {@code answers.free} and
 * {@code answers.pro}, each with its own counts and bans. The admin views, the login's ban check
 * and the unban look in each of them.
 */
@Component
public class AnswerLimits {

    private static final String PREFIX = AnswerController.LIMIT_NAME + ".";

    private final RateLimitAdvisor advisor;

    AnswerLimits(RateLimitAdvisor advisor) {
        this.advisor = advisor;
    }

    /**
     * Returns the limit ids of answer reads, as the limiter resolved them from the annotation and
     * the policies.
     * @return the limit ids, as {@code answers.free}, in order
     */
    public List<String> limitIds() {
        return this.advisor.limits()
            .stream()
            .map(LimitDescription::limitId)
            .filter((limitId) -> planOf(limitId) != null)
            .distinct()
            .toList();
    }

    /**
     * Returns the plan whose answer reads a limit id counts.
     * @param limitId a limit id, as {@code answers.pro}
     * @return the plan, as {@code pro}, or {@code null} for a limit id that is not of answer reads
     */
    public static @Nullable String planOf(String limitId) {
        return (limitId.startsWith(PREFIX) && limitId.length() > PREFIX.length())
                ? limitId.substring(PREFIX.length()) : null;
    }

}
