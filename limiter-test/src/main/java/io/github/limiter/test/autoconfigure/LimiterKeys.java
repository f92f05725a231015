package io.github.limiter.test.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Reads the limiter's Redis keys as docs/how-it-works.md lays them out: a state key
 * {@code <prefix>{<limit-id>:<key>}} or {@code <prefix>{<limit-id>}}, the same with a suffix such as
 * {@code :ban} or {@code :alert}, and others of the limiter's under the prefix, such as the recent
 * events {@code <prefix>events:{<limit-id>}}.
 */
final class LimiterKeys {

    private LimiterKeys() {
    }

    /**
     * Returns the {@code SCAN} pattern of every key under a prefix: the prefix with the pattern's
     * special characters escaped, then {@code *}.
     */
    static String pattern(String prefix) {
        StringBuilder pattern = new StringBuilder(prefix.length() + 4);
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                pattern.append('\\');
            }
            pattern.append(c);
        }
        return pattern.append('*').toString();
    }

    /**
     * Returns the state key a key belongs to, as the limiter remembers refused keys by it, or
     * {@code null} for a key of the limiter's that belongs to no state key. The hash tag ends at the
     * first <code>}</code>, since the limiter escapes braces in keys and the prefix has none.
     */
    static @Nullable String stateKey(String prefix, String key) {
        if (!key.startsWith(prefix) || key.length() <= prefix.length() || key.charAt(prefix.length()) != '{') {
            return null;
        }
        int end = key.indexOf('}', prefix.length());
        return (end < 0) ? null : key.substring(0, end + 1);
    }

}
