package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.internal.transport.BlockingScriptRunner;
import io.github.limiter.internal.transport.FailureKind;
import io.github.limiter.internal.transport.RedisPermissionException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Proves, when the limiter connects, that its Redis user may do what decisions, unbans and the
 * other instances need: run the decision script (each algorithm once, counting, on a key of its own
 * under the key prefix that lives a second) and publish on the instances' channel. A Redis that
 * answers {@code NOPERM} is configured wrongly, which is not an outage: the check fails with a
 * message that names the user, what was refused, and the rules to grant.
 */
final class RedisPermissions {

    /** The limit id of the keys the check writes: not one a {@code @RateLimit} can have (a space). */
    static final String CHECK_LIMIT_ID = "limiter permission check";

    /** Every command the limiter sends, and those its scripts call, by ACL category where one fits. */
    static final String COMMANDS = "+@read +@write +@scripting +publish +subscribe +ping +info +time";

    private static final Pattern COMMAND = Pattern.compile("run the '([^']+)' command");

    private RedisPermissions() {
    }

    /**
     * Runs {@code checks}, then the check of the limiter's own commands.
     * @param checks what else to check first, such as loading the scripts
     * @throws RedisPermissionException if Redis refuses any of it with {@code NOPERM}
     * @throws DataAccessException if Redis fails otherwise
     */
    static <T> T check(StringRedisTemplate redis, BlockingScriptRunner scripts, String keyPrefix, String channel,
            @Nullable String user, Supplier<T> checks) {
        try {
            T checked = checks.get();
            String stateKey = "";
            for (Algorithm algorithm : Algorithm.values()) {
                stateKey = RedisKeys.state(keyPrefix, CHECK_LIMIT_ID, algorithm.name().toLowerCase(Locale.ROOT));
                // counts, raises the alert at 1 and lives a second: every kind of write the script makes
                Limit limit = Limit.of(2, Duration.ofSeconds(1))
                    .withAlgorithm(algorithm)
                    .withAlertAt(1)
                    .withBanFor(Duration.ofSeconds(1));
                scripts.runHere(new DecisionArguments(DecisionScript.ACQUIRE, 1).add(stateKey, limit, 1));
            }
            // a state key no instance remembers: each forgets it, which changes nothing
            redis.convertAndSend(channel, stateKey);
            return checked;
        }
        catch (DataAccessException ex) {
            if (FailureKind.of(ex) == FailureKind.NOPERM) {
                throw new RedisPermissionException(message(user, FailureKind.messageOf(ex), keyPrefix, channel),
                        ex);
            }
            throw ex;
        }
    }

    /**
     * Says what a permission error means for the limiter, and what to grant.
     * @param user the Redis user, or {@code null} if unknown
     * @param refusal Redis's message
     */
    static String message(@Nullable String user, String refusal, String keyPrefix, String channel) {
        Refused refused = refused(refusal, keyPrefix, channel);
        String name = (user != null) ? user : "<user>";
        return "The Redis user " + ((user != null) ? "'" + user + "'" : "the limiter connects as") + " may not "
                + refused.what() + ", so rate limiting cannot work (Redis answered: " + refusal + "). This is a "
                + "configuration error, not an outage: grant it, for example with ACL SETUSER " + name + " "
                + refused.grant() + "; everything the limiter needs is " + rules(keyPrefix)
                + " (docs/operations.md, \"Redis users and ACLs\")";
    }

    /** The ACL rules the limiter needs, for a key prefix. */
    static String rules(String keyPrefix) {
        return "~" + keyPrefix + "* &" + keyPrefix + "* " + COMMANDS;
    }

    private static Refused refused(String refusal, String keyPrefix, String channel) {
        if (refusal.contains("channel")) {
            return new Refused("use the channel '" + channel + "', on which instances tell each other of unbans, "
                    + "resets and policy changes", "&" + keyPrefix + "*");
        }
        if (refusal.contains("key")) {
            return new Refused("use keys matching '" + keyPrefix + "*'", "~" + keyPrefix + "*");
        }
        Matcher command = COMMAND.matcher(refusal);
        if (command.find()) {
            String name = command.group(1).toLowerCase(Locale.ROOT);
            String upper = name.toUpperCase(Locale.ROOT);
            return new Refused(refusal.contains("script") ? "run " + upper + ", which the decision script calls"
                    : "run " + upper, "+" + name);
        }
        return new Refused("run a command the decision script calls", "+@read +@write +time");
    }

    /** What was refused, and the rules that grant it. */
    private record Refused(String what, String grant) {
    }

    /** The user's name as Redis knows it, or {@code null} if Redis does not say. */
    static @Nullable String user(StringRedisTemplate redis) {
        try {
            Object name = redis.execute((RedisCallback<Object>) connection -> connection.execute("ACL",
                    "WHOAMI".getBytes(StandardCharsets.UTF_8)));
            if (name instanceof byte[] bytes) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
            if (name instanceof String text) {
                return text;
            }
        }
        catch (RuntimeException ex) {
            // not allowed either, or a Redis older than 6.0
        }
        return null;
    }

}
