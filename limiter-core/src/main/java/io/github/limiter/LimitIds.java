package io.github.limiter;

import org.jspecify.annotations.Nullable;

/**
 * Checks limit ids. A limit id is not blank and has no {@code '{'}, {@code '}'}, {@code ':'} or
 * whitespace, so it can neither break a Redis hash tag nor be confused with the key that follows
 * it.
 * {@link LimitChecks} is how other packages reach it.
 */
final class LimitIds {

    private LimitIds() {
    }

    /**
     * Returns why {@code limitId} cannot be used, or {@code null} if it can.
     * @param limitId the candidate limit id
     * @return the problem, or {@code null}
     */
    static @Nullable String problemWith(String limitId) {
        if (limitId.isBlank()) {
            return "must not be blank";
        }
        // checked on every call: a loop, not a regular expression, so nothing is allocated
        for (int i = 0; i < limitId.length(); i++) {
            char c = limitId.charAt(i);
            if (c == '{' || c == '}' || c == ':' || Character.isWhitespace(c)) {
                return "must not contain '{', '}', ':' or whitespace";
            }
        }
        return null;
    }

}
