package io.github.limiter.sample.answers;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.stereotype.Component;

/**
 * The readers' plans. A reader's plan is one of their authorities, {@code PLAN_FREE} or
 * {@code PLAN_PRO} (given in {@code auth/SecurityConfiguration}), so it travels with the login in
 * the session like the roles. Answer reads count under the policy of the plan's name,
 * {@code limiter.policies.free} or {@code limiter.policies.pro}:
 * {@code @RateLimit(policy = "#{@plans.of(#user)}")} on {@link AnswerController}.
 */
@Component("plans")
public class Plans {

    /** The plan of most readers, and of anyone whose plan names no policy. */
    public static final String FREE = "free";

    /** The paying readers' plan. */
    public static final String PRO = "pro";

    private static final String AUTHORITY_PREFIX = "PLAN_";

    /**
     * Returns the authority that puts a user on a plan.
     * @param plan the plan, as {@code pro}
     * @return the authority, as {@code PLAN_PRO}
     */
    public static String authority(String plan) {
        return AUTHORITY_PREFIX + plan.toUpperCase(Locale.ROOT);
    }

    /**
     * Returns a user's plan: the name of the policy their answer reads count under.
     * @param user the user
     * @return the plan, as {@code pro}, or {@code null} for a user with none, whose reads
     * {@code limiter.default-policy} counts under {@code free}
     */
    public @Nullable String of(UserDetails user) {
        for (GrantedAuthority authority : user.getAuthorities()) {
            String name = authority.getAuthority();
            if (name != null && name.startsWith(AUTHORITY_PREFIX)) {
                return name.substring(AUTHORITY_PREFIX.length()).toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

}
